#!/bin/bash
# Issue 33, branch wip/two-level-chain: RUN_TO_RUN with the two-level
# ordered chain (blocks of 32 tiles, a fixed Kogge-Stone within a block,
# block prefixes chained), H100: NONE and RUN_TO_RUN, float and double,
# 2^24 and 2^28, twice, the decoupled look-back and AUTO; repeats bit for
# bit; NVIDIA ctest -R 'test_repro|test_scan|test_segment|test_lookback'
# and test_merge (its NVIDIA rows; the PTX warp form of the walk is compiled only here).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
for k in 1 2; do for t in float double; do for r in none run-to-run; do
  timeout 40 $B --type $t --algorithms auto,decoupled-lookback --preset 24,28 --repro $r --reps 11 --batch 0 > $R/${t}_${r}_$k.txt 2>&1
  echo "$t $r $k: $(grep -E '^(16777216|268435456) ' $R/${t}_${r}_$k.txt | awk '{printf "%s %s %s us %s | ", $1, $2, $3, $7}')"
done; done; done | tee $R/table.txt
timeout 100 $B --type float --algorithms decoupled-lookback --repro run-to-run --repeat-check 1000 --preset 24 > $R/repeat_float.txt 2>&1; echo "repeat float rc $?" >> $R/tests.txt
timeout 60 $B --type double --algorithms decoupled-lookback --repro run-to-run --repeat-check 300 --preset 24 > $R/repeat_double.txt 2>&1; echo "repeat double rc $?" >> $R/tests.txt
(cd /tmp/b && timeout 300 ctest -j4 -R 'test_repro|test_scan|test_segment|test_lookback|test_merge' --output-on-failure > $R/ctest.log 2>&1; echo "ctest rc $?" >> $R/tests.txt)
cat $R/tests.txt; grep -h "^16777216" $R/repeat_*.txt; tail -8 $R/ctest.log
cd $OUT && tar czf r.tgz r && rm -rf r
