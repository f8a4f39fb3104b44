#!/bin/bash
# Issue 29: the segmented sort (clprim_segmented_sort) against CUB 13's DeviceSegmentedSort on the
# issue's inputs (2^28 uint32 keys in 10^5 and 10^7 equal segments), beside the whole-array sort;
# issue 28: the summed-area table with the windowed look-back as the NVIDIA row's choice.
# NVIDIA ctest of test_sort (the sort kernels moved into sort_tile.clh) and test_sat.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_sort.cu -o /tmp/cub_sort > /tmp/nvcc.log 2>&1 &
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null) > $R/when.txt
B=/tmp/b/tools/clprim-bench
timeout 200 ctest --test-dir /tmp/b -R "test_sort|test_sat" --output-on-failure > $R/ctest.log 2>&1
tail -4 $R/ctest.log
for m in 100000 10000000; do
  $B --sort uniform --type uint32 --preset large --sort-segments $m --reps 5 --batch 0 > $R/seg_$m.txt 2>&1
done
$B --sort uniform --type uint32 --preset large --sort-segments 100000 --values 4 --reps 5 --batch 0 > $R/seg_100000_v4.txt 2>&1
$B --sort uniform --type uint32 --preset large --algorithms onesweep --reps 5 --batch 0 > $R/whole.txt 2>&1
$B --sat int32 --sat-sides 4096,16384 --reps 5 > $R/sat_int32.txt 2>&1
$B --sat float --sat-sides 4096,16384 --reps 5 > $R/sat_float.txt 2>&1
wait
/tmp/cub_sort --reps 5 > $R/cub.csv 2> $R/cub.err
cat $R/cub.csv
cd $OUT && tar czf r.tgz r
for f in r/seg_*.txt r/whole.txt; do echo "== $f"; grep -E "^268435456|^67108864" $f; done
for f in r/sat_*.txt; do echo "== $f"; tail -3 $f; done
rm -rf r
