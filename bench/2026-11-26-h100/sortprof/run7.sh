#!/bin/bash
# Issue 29 step 7: 64-bit keys after the unrolled ranking (22.0 ms in run3/run4, against 19.2 ms
# on 2026-11-25): keys per work-item x register bound; uint32 keys with the new row (28). H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
$B --sort uniform --type uint32 --preset large --algorithms onesweep --reps 5 > $R/keys_row.txt 2>&1
echo "uint32 row: $(grep ^268435456 $R/keys_row.txt)"
for v in 20:64 12:64 16:64 20:96 16:96; do
  IFS=: read i r <<< "$v"
  CLPRIM_SORT_ITEMS=$i CLPRIM_SORT_MAX_REGS=$r $B --sort uniform --type uint64 --preset large --algorithms onesweep --reps 3 > $R/u64_${i}_$r.txt 2>&1
  echo "uint64 items $i regs $r: $(grep ^268435456 $R/u64_${i}_$r.txt)"
done
cd $OUT && tar czf r7.tgz r && rm -rf r
