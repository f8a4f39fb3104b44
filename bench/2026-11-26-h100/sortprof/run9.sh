#!/bin/bash
# Issue 29 step 9: uint64 keys timed as on 2026-11-25 (--batch 0), kind compiled in or not. H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
for k in 1 0; do
  CLPRIM_SORT_KIND_IN_PROGRAM=$k timeout 60 /tmp/b/tools/clprim-bench --sort uniform --type uint64 --preset large --algorithms onesweep --reps 3 --batch 0 > $OUT/u64_kip$k.txt 2>&1
  echo "uint64 kip $k batch 0: $(grep ^268435456 $OUT/u64_kip$k.txt)"
done
