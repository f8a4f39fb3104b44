#!/bin/bash
# Issue 28: the segmented reduces with 16 or 24 elements per work-item (fewer
# registers held for the next tile) at several register bounds; H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
$B --preset large --segmented reduce-keys --csv $R/base_reduce-keys.csv > $R/base_reduce-keys.txt 2>&1
for i in 16 24; do
  for r in 56 64 72 80; do
    CLPRIM_SEGMENT_LOOP_ITEMS=$i CLPRIM_SEGMENT_LOOP_KEYS_MAX_REGS=$r $B --preset large --segmented reduce-keys --csv $R/i${i}_r${r}_reduce-keys.csv > $R/i${i}_r${r}_reduce-keys.txt 2>&1
    CLPRIM_SEGMENT_LOOP_ITEMS=$i CLPRIM_SEGMENT_LOOP_MAX_REGS=$r $B --preset large --segmented reduce-flags --csv $R/i${i}_r${r}_reduce-flags.csv > $R/i${i}_r${r}_reduce-flags.txt 2>&1
  done
done
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-28s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
