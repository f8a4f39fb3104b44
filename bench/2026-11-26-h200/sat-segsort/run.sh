#!/bin/bash
# The touched primitives on one H200: the summed-area table with the windowed look-back (the NVIDIA
# row's choice since 2026-11-26) and the segmented sort; NVIDIA ctest of test_sat and test_sort.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null) > $R/when.txt; cat $R/when.txt
B=/tmp/b/tools/clprim-bench
$B --sat int32 --sat-sides 4096,16384 --reps 5 > $R/sat_int32.txt 2>&1
CLPRIM_SAT_WINDOW=0 CLPRIM_SAT_CHAINED=1 $B --sat int32 --sat-sides 4096,16384 --reps 5 > $R/sat_int32_chained.txt 2>&1
for m in 100000 10000000; do
  $B --sort uniform --type uint32 --preset large --sort-segments $m --reps 5 --batch 0 > $R/seg_$m.txt 2>&1
done
timeout 200 ctest --test-dir /tmp/b -R "test_sat|test_sort" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log
for f in $R/sat_*.txt; do echo "== $(basename $f)"; tail -2 $f; done
for f in $R/seg_*.txt; do echo "== $(basename $f)"; grep ^268435456 $f; done
cd $OUT && tar czf r.tgz r && rm -rf r
