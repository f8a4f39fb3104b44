#!/bin/bash
# Issue 28: the looping segmented pass with 128 work-items per work-group
# (twice the work-groups per SM at the same registers, so a work-group
# waiting for its look-back idles half as many warps) against 256; H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for f in reduce-keys reduce-flags scan-keys scan-flags scan-offsets; do
  $B --preset large --segmented $f --csv $R/w256_$f.csv > $R/w256_$f.txt 2>&1
  for g in 6 12; do
    CLPRIM_SEGMENT_WG_SIZE=128 CLPRIM_SEGMENT_LOOP_GROUPS_PER_CU=$g $B --preset large --segmented $f --csv $R/w128g${g}_$f.csv > $R/w128g${g}_$f.txt 2>&1
  done
done
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
