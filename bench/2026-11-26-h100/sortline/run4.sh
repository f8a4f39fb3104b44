#!/bin/bash
# Issue 29: the one-sweep pass on ordered keys (computed once at the load, restored at the write;
# NaN tiles repaired) -- NVIDIA test_sort's one-sweep tests and the float figures; issue 34:
# clprim_lower_bound / upper_bound on NVIDIA (test_search, n = m = 2^28 int32 sorted and random
# queries, both algorithms). H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
(cd /tmp/b && timeout 120 stdbuf -oL ./tests/test_search > $R/test_search.log 2>&1; echo "test_search rc $?" >> $R/tests.txt
 for t in test_onesweep test_bit_ranges test_options test_segmented; do
  TU_FILTER="$t" timeout 150 stdbuf -oL ./tests/test_sort > $R/test_$t.log 2>&1; echo "$t rc $?" >> $R/tests.txt; done)
cat $R/tests.txt
for c in "uniform uint32" "uniform float" "narrow float" "uniform int32"; do
  set -- $c
  timeout 90 $B --sort $1 --type $2 --preset large --algorithms onesweep --reps 3 --batch 0 > $R/sort_$1_$2.txt 2>&1
  echo "sort $c: $(grep ^268435456 $R/sort_$1_$2.txt)" >> $R/figures.txt
done
for q in sorted random; do
  timeout 150 $B --search lower --queries $q --type int32 --preset large --algorithms binary,cached --reps 3 --batch 0 --csv $R/search_$q.csv > $R/search_$q.txt 2>&1
  grep ^268435456 $R/search_$q.txt | sed "s/^/search $q: /" >> $R/figures.txt
done
cat $R/figures.txt
cd $OUT && tar czf r4.tgz r && rm -rf r
