#!/bin/bash
# Issue 28: the reduce by flags at 24 elements per work-item (the row's new
# loop_flags_reduce_items) with the other segmented forms, and NVIDIA's
# test_segment on it; H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for f in reduce-flags reduce-keys scan-flags scan-keys scan-offsets; do
  $B --preset large --segmented $f --csv $R/s_$f.csv > $R/s_$f.txt 2>&1
done
for L in 4 1000000; do
  $B --preset large --segmented reduce-flags --segment-length $L --csv $R/L${L}_reduce-flags.csv > $R/L${L}_reduce-flags.txt 2>&1
done
timeout 150 ctest --test-dir /tmp/b -R "test_segment" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
