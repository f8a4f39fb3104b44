#!/bin/bash
# After the review's mend (seg_loop's fetch and head bits as one helper each,
# SP_TILE_ITEMS derived from ITEMS in the kernel): the segmented forms and
# NVIDIA's test_segment, to show nothing moved; H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for f in scan-flags scan-keys scan-offsets reduce-flags reduce-keys; do
  $B --preset large --segmented $f --csv $R/s_$f.csv > $R/s_$f.txt 2>&1
done
timeout 150 ctest --test-dir /tmp/b -R "test_segment" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
