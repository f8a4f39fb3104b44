#!/bin/bash
# Issue 29: the timeline of one whole sort of 2^28 keys from the queue's profiling events
# (tools/cl_trace.c; Nsight Compute does not see OpenCL kernels): each command's device
# time and the gap before it. uint32 keys, uint32 pairs, uint64 keys. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
gcc -O2 -shared -fPIC tools/cl_trace.c -o /tmp/cl_trace.so -ldl -lOpenCL || exit 1
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
for c in "uint32 0" "uint32 4" "uint64 0"; do
  set -- $c
  CL_TRACE_FILE=$R/trace_$1_$2.txt LD_PRELOAD=/tmp/cl_trace.so $B --sort uniform --type $1 --values $2 --preset large --algorithms onesweep --reps 3 --batch 0 > $R/bench_$1_$2.txt 2>&1
done
python3 - $R <<'PY'
import sys, glob
R = sys.argv[1]
for f in sorted(glob.glob(R + '/trace_*.txt')):
    rows = [l.split() for l in open(f)]
    rows = [(w, int(g), int(s), int(e)) for w, g, s, e in rows]
    # the last whole sort: from the last sort_histogram back to the command before it
    h = max(i for i, r in enumerate(rows) if r[0] == 'sort_histogram')
    first = h
    while first > 0 and rows[first - 1][0] in ('fill', 'copy') and rows[first - 1][3] <= rows[h][2]:
        first -= 1
    seq = rows[first:]
    seq = [r for r in seq if r[0] in ('fill', 'copy') or r[0].startswith('sort_')][:12]
    print('==', f.split('/')[-1])
    prev = None
    for w, g, s, e in seq:
        gap = (s - prev) / 1e3 if prev else 0
        print(f'  {w:22s} global {g:>11d}  {(e - s) / 1e3:9.1f} us  gap before {gap:7.1f} us')
        prev = e
    print(f'  whole: {(seq[-1][3] - seq[0][2]) / 1e3:.1f} us')
PY
grep -h ^268435456 $R/bench_*.txt
cd $OUT && tar czf r2.tgz r && rm -rf r
