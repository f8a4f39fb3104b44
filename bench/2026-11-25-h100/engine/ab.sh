#!/bin/bash
# A/B on one H100: commit 4568973 (old/, before the engine) against the tree.
# old/ held `git archive 4568973` extracted (removed after the run).
. .gpu/device-env.sh >/dev/null 2>&1
(cmake -S old -B /tmp/a -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/a -j8 --target clprim-bench >/dev/null 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j8 >/dev/null 2>&1 || { echo build failed; exit 1; }
wait
export CLPRIM_DEVICE=NVIDIA
mkdir -p $OUT/r
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $OUT/r/when.txt
for round in 1 2; do
for v in a b; do
  B=/tmp/$v/tools/clprim-bench
  $B --preset large --algorithms auto --csv $OUT/r/${v}_scan_$round.csv > $OUT/r/${v}_scan_$round.txt 2>&1
  for op in select select-flags unique rle; do
    $B --preset large --compact $op --algorithms single-pass --csv $OUT/r/${v}_c_${op}_$round.csv > $OUT/r/${v}_c_${op}_$round.txt 2>&1
  done
  for f in scan-flags scan-offsets scan-keys reduce-keys; do
    $B --preset large --segmented $f --csv $OUT/r/${v}_s_${f}_$round.csv > $OUT/r/${v}_s_${f}_$round.txt 2>&1
  done
done
done
timeout 200 ctest --test-dir /tmp/b -R "test_lookback|test_scan$|test_compact|test_segment" -j4 --output-on-failure > $OUT/r/ctest.log 2>&1
tail -3 $OUT/r/ctest.log
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-32s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | grep -E "single|auto|scan-|reduce-" | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
