#!/bin/bash
# Issue 28: a reduce's run visits only its segment ends (bit tricks instead of
# a pass over 32 elements), the next tile's value folded by whole chunks, and
# the key before a chunk by shuffle (SEG_PREV_SHFL=0: every lane reads it);
# registers re-swept for the reduces; H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for f in scan-flags scan-keys scan-offsets reduce-flags reduce-keys; do
  $B --preset large --segmented $f --csv $R/s_$f.csv > $R/s_$f.txt 2>&1
done
for f in scan-keys reduce-keys; do
  CLPRIM_BUILD_OPTIONS="-D SEG_PREV_SHFL=0" $B --preset large --segmented $f --csv $R/noshfl_$f.csv > $R/noshfl_$f.txt 2>&1
done
for f in reduce-flags reduce-keys; do
  $B --preset large --segmented $f --segment-length 4 --csv $R/L4_$f.csv > $R/L4_$f.txt 2>&1
done
for r in 64 96; do
  CLPRIM_SEGMENT_LOOP_KEYS_MAX_REGS=$r $B --preset large --segmented reduce-keys --csv $R/r${r}_reduce-keys.csv > $R/r${r}_reduce-keys.txt 2>&1
  CLPRIM_SEGMENT_LOOP_KEYS_MAX_REGS=$r $B --preset large --segmented scan-keys --csv $R/r${r}_scan-keys.csv > $R/r${r}_scan-keys.txt 2>&1
done
CLPRIM_SEGMENT_LOOP_MAX_REGS=80 $B --preset large --segmented reduce-flags --csv $R/r80_reduce-flags.csv > $R/r80_reduce-flags.txt 2>&1
timeout 150 ctest --test-dir /tmp/b -R "test_segment" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
