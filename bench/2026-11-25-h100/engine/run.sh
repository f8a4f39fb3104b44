#!/bin/bash
# The engine issue's figures: clprim's scan-built family and CUB 13 on one H100
# in one lease (run from the project root on the GPU machine, $OUT set).
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_family.cu -o /tmp/cub_family > $OUT/nvcc.log 2>&1 &
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1) > $OUT/when.txt
$B --preset large --csv $OUT/scan.csv > $OUT/scan.txt 2>&1
for op in select select-flags partition partition-reversed unique rle; do
  $B --preset large --compact $op --csv $OUT/c_$op.csv > $OUT/c_$op.txt 2>&1
done
for f in scan-flags scan-keys scan-offsets reduce-flags reduce-keys reduce-offsets; do
  $B --preset large --segmented $f --csv $OUT/s_$f.csv > $OUT/s_$f.txt 2>&1
done
for k in int32 float uint8 box; do
  $B --sat $k --sat-sides 4096,16384 --csv $OUT/sat_$k.csv > $OUT/sat_$k.txt 2>&1
done
$B --preset large --sort uniform --type uint32 --algorithms onesweep --csv $OUT/sort.csv > $OUT/sort.txt 2>&1
wait
/tmp/cub_family --n 2^28 --skip 67108864 > $OUT/cub.csv 2> $OUT/cub.txt
echo "cub rc $?" >> $OUT/cub.txt
timeout 240 ctest --test-dir /tmp/b -R "test_lookback|test_scan$|test_compact|test_segment|test_sat|test_sort|test_reduce$" -j4 --output-on-failure > $OUT/ctest.log 2>&1
tail -4 $OUT/ctest.log
cat $OUT/cub.txt | tail -14
for f in $OUT/*.txt; do echo "== $f"; grep -E "268435456|16384|single|onesweep" $f | head -6; done 2>/dev/null | cut -c1-150
