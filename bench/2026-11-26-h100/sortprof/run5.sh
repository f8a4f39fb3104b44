#!/bin/bash
# Issue 29 step 5: the keys tile with the kind compiled in, items x register bound, one pass each
# (tools/nv_ptx_harness.cu); then NVIDIA test_sort run directly (progress kept; the ctest of
# run4.sh ran past its 280 s: every key kind is a program of its own now). H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/h tools/nv_ptx_harness.cu -lcuda || exit 1
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
cat > /tmp/ptx.py <<'PY'
import sys, glob
for f in glob.glob(sys.argv[1] + '/*'):
    b = open(f, 'rb').read()
    if b'.entry sort_onesweep' in b:
        i = b.find(b'//'); j = b.find(b'\0', i)
        open(sys.argv[2], 'wb').write(b[i:j]); break
PY
for v in 24:64 26:64 28:64 30:64 32:64 28:72 32:72; do
  IFS=: read i r <<< "$v"
  c=/tmp/cs_${i}_$r
  CLPRIM_CACHE_DIR=$c CLPRIM_SORT_ITEMS=$i CLPRIM_SORT_MAX_REGS=$r $B --sort uniform --type uint32 --preset short --algorithms onesweep --reps 1 > $c.bench 2>&1
  python3 /tmp/ptx.py $c $c.ptx
  s=$(ptxas -arch=sm_90 -v $c.ptx -o /dev/null 2>&1 | grep -A2 "sort_onesweep'" | grep -o "[0-9]* bytes spill stores" | head -1)
  echo "items $i regs $r ($s): $(/tmp/h sort $c.ptx 4 $((256 * i)) 2>&1 | grep -E 'pass' | tr '\n' ' ')" | tee -a $R/items.txt
done
start=$(date +%s)
timeout 380 stdbuf -oL -eL /tmp/b/tests/test_sort > $R/test_sort.log 2>&1; echo "test_sort rc $? in $(( $(date +%s) - start )) s" | tee -a $R/items.txt
grep -E "^\[ *(OK|FAILED|RUN|PASSED|  FAILED) " $R/test_sort.log | tail -8
cd $OUT && tar czf r5.tgz r && rm -rf r
