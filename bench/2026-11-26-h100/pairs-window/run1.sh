#!/bin/bash
# Issue 29: pairs with values staged in the keys' local memory after the keys (stage 2, 3)
# against beside them (stage 1 at 17 per work-item), CUB 13 in the same lease; issue 34:
# WINDOW searches and the histograms' first GPU figures; NVIDIA tests of all three. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cub tools/cub_sort.cu > $R/nvcc_cub.log 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
wait
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
f() { echo "$1: $(grep ^268435456 $2 | head -3 | tr '\n' ' ')" >> $R/figures.txt; }
for c in "2 28" "3 28" "1 17"; do
  set -- $c
  CLPRIM_SORT_STAGE_VALUES=$1 CLPRIM_SORT_ITEMS=$2 timeout 60 $B --sort uniform --type uint32 --values 4 --preset large --algorithms onesweep --reps 5 --batch 0 > $R/pairs_$1_$2.txt 2>&1
  f "pairs stage $1 items $2" $R/pairs_$1_$2.txt
done
timeout 60 $B --sort uniform --type uint32 --preset large --algorithms onesweep --reps 5 --batch 0 > $R/keys.txt 2>&1; f "keys uint32" $R/keys.txt
timeout 60 $B --sort uniform --type uint64 --values 4 --preset large --algorithms onesweep --reps 3 --batch 0 > $R/pairs64.txt 2>&1; f "pairs uint64 (stage 2)" $R/pairs64.txt
timeout 60 /tmp/cub --n 2^28 --reps 5 --segments '' > $R/cub.csv 2>&1
for q in sorted random; do
  timeout 100 $B --search lower --queries $q --type int32 --preset large --algorithms cached,window --reps 3 --batch 0 > $R/search_$q.txt 2>&1; f "search $q" $R/search_$q.txt
done
for h in uint8 float uint32; do
  timeout 60 $B --histogram $h --preset large --reps 5 --batch 0 > $R/hist_$h.txt 2>&1; f "histogram $h" $R/hist_$h.txt
done
(cd /tmp/b && timeout 100 stdbuf -oL ./tests/test_search > $R/test_search.log 2>&1; echo "test_search rc $?" >> $R/tests.txt
 timeout 100 stdbuf -oL ./tests/test_histogram > $R/test_histogram.log 2>&1; echo "test_histogram rc $?" >> $R/tests.txt
 TU_FILTER="test_onesweep" timeout 170 stdbuf -oL ./tests/test_sort > $R/test_onesweep.log 2>&1; echo "test_onesweep rc $?" >> $R/tests.txt)
cat $R/tests.txt $R/cub.csv $R/figures.txt
cd $OUT && tar czf r1.tgz r && rm -rf r
