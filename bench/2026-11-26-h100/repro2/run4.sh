#!/bin/bash
# Double RUN_TO_RUN on the H100: the single pass's shape (work-groups per
# compute unit, tile items, work-group size) against NONE's.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
for r in none run-to-run; do for w in 128 256; do for i in 16 32; do for g in 2 4 8 12; do
  CLPRIM_SP_WG_SIZE=$w CLPRIM_SP_TILE_ITEMS=$i CLPRIM_SP_GROUPS_PER_CU=$g timeout 30 $B --type double \
    --algorithms decoupled-lookback --preset 24,28 --repro $r --reps 7 --batch 0 > $R/d_${r}_${w}_${i}_$g.txt 2>&1
  echo "$r wg $w items $i groups $g: $(grep -E '^(16777216|268435456) ' $R/d_${r}_${w}_${i}_$g.txt | awk '{printf "%s %s us %s | ", $1, $3, $7}')"
done; done; done; done | tee $R/sweep.txt
cd $OUT && tar czf r4.tgz r && rm -rf r
