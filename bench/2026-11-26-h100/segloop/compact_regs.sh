#!/bin/bash
# Issue 28: compaction's single pass bounded to 64 / 80 / 96 registers (0:
# the compiler's choice), and unique / run-length encoding looping (4 groups
# per compute unit) or one tile per work-group; H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for r in 0 64 80 96; do
  for op in select select-flags partition-reversed unique rle; do
    CLPRIM_COMPACT_MAX_REGS=$r $B --preset large --compact $op --algorithms single-pass --csv $R/r${r}_$op.csv > $R/r${r}_$op.txt 2>&1
  done
  for op in unique rle; do
    CLPRIM_COMPACT_MAX_REGS=$r CLPRIM_COMPACT_GROUPS_PER_CU=4 CLPRIM_COMPACT_ITEMS=32 $B --preset large --compact $op --algorithms single-pass --csv $R/loop_r${r}_$op.csv > $R/loop_r${r}_$op.txt 2>&1
  done
done
for f in /tmp/cache/*.bin; do python3 -c "
import sys
d=open('$f','rb').read(); i=d.find(b'//'); j=d.find(b'\x00',i); sys.stdout.buffer.write(d[i:j if j>0 else len(d)])" > /tmp/x.ptx; ptxas -arch=sm_90 -v /tmp/x.ptx -o /dev/null 2>&1 | grep -B3 "Used" | grep -E "entry function|Used" | paste - - | grep -E "compact_single_pass" | sed 's/ptxas info    : //g' >> $R/regs.txt; done
sort -u $R/regs.txt | cut -c1-150
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | grep -E "single" | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
