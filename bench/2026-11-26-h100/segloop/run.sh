#!/bin/bash
# Issue 28: the segmented scans and reduces on the looping single pass
# (seg_loop) against the one-tile kernel (CLPRIM_SEGMENT_LOOP_ITEMS=0) and
# CUB 13, and the plain scan re-measured (issue 31), one H100, one lease.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_family.cu -o /tmp/cub_family > /tmp/nvcc.log 2>&1 &
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache
R=$OUT/r; mkdir -p $R
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null) > $R/when.txt
B=/tmp/b/tools/clprim-bench
$B --preset large --algorithms auto --csv $R/scan.csv > $R/scan.txt 2>&1
for f in scan-flags scan-keys reduce-flags reduce-keys scan-offsets reduce-offsets; do
  $B --preset large --segmented $f --csv $R/s_$f.csv > $R/s_$f.txt 2>&1
done
for f in scan-flags scan-keys reduce-keys; do
  CLPRIM_SEGMENT_LOOP_ITEMS=0 $B --preset large --segmented $f --csv $R/old_$f.csv > $R/old_$f.txt 2>&1
  for g in 3 4 8; do
    CLPRIM_SEGMENT_LOOP_GROUPS_PER_CU=$g $B --preset large --segmented $f --csv $R/g${g}_$f.csv > $R/g${g}_$f.txt 2>&1
  done
done
for f in /tmp/cache/*.bin; do python3 -c "
import sys
d=open('$f','rb').read(); i=d.find(b'//'); j=d.find(b'\x00',i); sys.stdout.buffer.write(d[i:j if j>0 else len(d)])" > /tmp/x.ptx; ptxas -arch=sm_90 -v /tmp/x.ptx -o /dev/null 2>&1 | grep -B3 "Used" | grep -E "entry function|Used" | paste - - | grep -E "single_pass|seg_loop" | sed 's/ptxas info    : //g' >> $R/regs.txt; done
wait
/tmp/cub_family --n 2^28 --skip 67108864 > $R/cub.csv 2> $R/cub.txt
echo "cub rc $?" >> $R/cub.txt
timeout 200 ctest --test-dir /tmp/b -R "test_segment|test_scan$|test_lookback" -j3 --output-on-failure > $R/ctest.log 2>&1
tail -4 $R/ctest.log; sort -u $R/regs.txt | cut -c1-150
tail -14 $R/cub.txt
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
