#!/bin/bash
# Issue 29: where a whole sort's time goes outside its passes. Per-kernel durations (Nsight
# Compute, gpu__time_duration) of one clprim sort of 2^28 uint32 keys and of CUB 13's, then
# the wall-clock figures of both in the same lease. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cub tools/cub_sort.cu > $R/nvcc_cub.log 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
wait
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null) > $R/when.txt
timeout 200 ncu --metrics gpu__time_duration.sum --csv $B --sort uniform --type uint32 --preset large --algorithms onesweep --reps 1 --batch 0 > $R/ncu_ours.csv 2> $R/ncu_ours.err
timeout 100 ncu --metrics gpu__time_duration.sum --csv /tmp/cub --n 2^28 --reps 1 --segments '' > $R/ncu_cub.csv 2> $R/ncu_cub.err
/tmp/cub --n 2^28 --reps 7 --segments '' > $R/cub.csv 2>&1
$B --sort uniform --type uint32 --preset large --algorithms onesweep --reps 7 > $R/keys.txt 2>&1
python3 - $R <<'PY'
import csv, sys, io
R = sys.argv[1]
for name in ('ours', 'cub'):
    txt = open(f'{R}/ncu_{name}.csv').read()
    i = txt.find('"ID"')
    rows = list(csv.DictReader(io.StringIO(txt[i:])))
    print(f'== {name}: {len(rows)} kernels; the last 12:')
    for r in rows[-12:]:
        print(f"  {r['Kernel Name'][:60]:60s} grid {r['Grid Size']:>16s} {r['Metric Value']:>12s} {r['Metric Unit']}")
PY
cat $R/cub.csv; grep -E "^(n|268435456)" $R/keys.txt
cd $OUT && tar czf r1.tgz r && rm -rf r
