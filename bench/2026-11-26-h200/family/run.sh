#!/bin/bash
# Issue 28's H200 must: every scan-built primitive beside CUB 13 on the same H200, one lease
# (int32 at n = 2^28, ratio to the copy of the same run), the summed-area table, and NVIDIA
# ctest of the touched primitives there.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_family.cu -o /tmp/cub_family > /tmp/nvcc.log 2>&1 &
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null) > $R/when.txt
cat $R/when.txt
B=/tmp/b/tools/clprim-bench
$B --preset large --algorithms auto --csv $R/scan.csv > $R/scan.txt 2>&1
for op in select select-flags partition partition-reversed unique rle; do
  $B --preset large --compact $op --algorithms single-pass --csv $R/c_$op.csv > $R/c_$op.txt 2>&1
done
for f in scan-flags scan-keys scan-offsets reduce-flags reduce-keys reduce-offsets; do
  $B --preset large --segmented $f --csv $R/s_$f.csv > $R/s_$f.txt 2>&1
done
$B --sat int32 --sat-sides 4096,16384 --csv $R/sat.csv > $R/sat.txt 2>&1
wait
/tmp/cub_family --n 2^28 --skip 67108864 > $R/cub.csv 2> $R/cub.txt
echo "cub rc $?" >> $R/cub.txt
timeout 200 ctest --test-dir /tmp/b -R "test_compact|test_segment|test_scan$|test_sat" -j3 --output-on-failure > $R/ctest.log 2>&1
tail -4 $R/ctest.log; tail -14 $R/cub.txt; tail -6 $R/sat.txt
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-24s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | grep -vE "three|auto.*compact" | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
