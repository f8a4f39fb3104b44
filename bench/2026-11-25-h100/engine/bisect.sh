#!/bin/bash
# Which shared piece costs compaction its speed: the old count scan and the
# COMPACT_OLD_SCAN / COMPACT_OLD_PREFIX were temporary switches in cl/compact.cl for this run.
# old look-back block switched back in through build options.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
for o in "" "-D COMPACT_OLD_SCAN=1" "-D COMPACT_OLD_PREFIX=1" "-D COMPACT_OLD_SCAN=1 -D COMPACT_OLD_PREFIX=1"; do
  for op in select-flags select unique; do
    printf "%-50s %-14s " "[$o]" $op
    CLPRIM_BUILD_OPTIONS="$o" $B --preset large --compact $op --algorithms single-pass --reps 7 --batch 0 2>&1 | grep 268435456 | awk '{print $(NF-3)}'
  done
done
