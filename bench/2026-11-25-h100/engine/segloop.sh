#!/bin/bash
# The segmented single pass looping over tiles (SEG_LOOPED) against one tile
# per work-group, by the knob CLPRIM_SEGMENT_GROUPS_PER_CU (0: off).
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench clprim_test_segment >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
date -u | tee $OUT/seg.txt
for g in 0 8; do
  for f in scan-flags scan-keys reduce-keys reduce-flags; do
    r=$(CLPRIM_SEGMENT_GROUPS_PER_CU=$g $B --preset large --segmented $f --reps 5 --batch 0 2>&1 | grep 268435456 | awk '{print $(NF-2), $NF}')
    echo "groups_per_cu=$g $f $r" | tee -a $OUT/seg.txt
  done
done
(cd /tmp/b && CLPRIM_SEGMENT_GROUPS_PER_CU=8 timeout 60 ./tests/test_segment 2>&1 | tail -2) | tee -a $OUT/seg.txt
for f in scan-flags reduce-keys; do
  r=$(CLPRIM_SEGMENT_GROUPS_PER_CU=4 $B --preset large --segmented $f --reps 5 --batch 0 2>&1 | grep 268435456 | awk '{print $(NF-2), $NF}')
  echo "groups_per_cu=4 $f $r" | tee -a $OUT/seg.txt
done
