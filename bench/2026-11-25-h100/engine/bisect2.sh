#!/bin/bash
# Is it the tile-prefix barrier's global fence that costs compaction?
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
for o in "" "-D LB_WG_FENCE=CLK_LOCAL_MEM_FENCE"; do
  for op in select-flags select unique rle; do
    printf "%-40s %-14s " "[$o]" $op
    CLPRIM_BUILD_OPTIONS="$o" $B --preset large --compact $op --algorithms single-pass --reps 7 --batch 0 2>&1 | grep 268435456 | awk '{print $(NF-3)}'
  done
  printf "%-40s %-14s " "[$o]" scan
  CLPRIM_BUILD_OPTIONS="$o" $B --preset large --algorithms auto --reps 7 --batch 0 2>&1 | grep 268435456 | awk '{print $(NF-1)}'
done
