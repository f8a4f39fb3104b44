#!/bin/bash
# Issue 28: compaction's tile-prefix step through the shared
# clprim_wg_tile_prefix (-D COMPACT_SHARED_PREFIX=1) against its own block,
# both with the rows' register bounds (the select by comparison: 80); H100.
# The switch was a patch to cl/compact.cl for this run only (the call in
# place of the written-out block, as in bench/2026-11-25-h100/engine/);
# compact_shared.tgz holds what came back.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for v in 0 1; do
  for op in select select-flags partition-reversed unique rle; do
    CLPRIM_CACHE_DIR=/tmp/c$v CLPRIM_BUILD_OPTIONS="-D COMPACT_SHARED_PREFIX=$v" $B --preset large --compact $op --algorithms single-pass --csv $R/v${v}_$op.csv > $R/v${v}_$op.txt 2>&1
  done
done
for v in 0 1; do for f in /tmp/c$v/*.bin; do python3 -c "
import sys
d=open('$f','rb').read(); i=d.find(b'//'); j=d.find(b'\x00',i); sys.stdout.buffer.write(d[i:j if j>0 else len(d)])" > /tmp/x.ptx; ptxas -arch=sm_90 -v /tmp/x.ptx -o /dev/null 2>&1 | grep -B3 "Used" | grep -E "entry function|Used" | paste - - | grep -E "compact_single_pass" | sed "s/ptxas info    : //g;s/^/v$v /" >> $R/regs.txt; done; done
CLPRIM_BUILD_OPTIONS="-D COMPACT_SHARED_PREFIX=1" timeout 120 ctest --test-dir /tmp/b -R test_compact --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log; sort -u $R/regs.txt | cut -c1-130
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | grep -E "single" | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
