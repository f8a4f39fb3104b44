#!/bin/bash
# Issue 28: the looping single pass bounded to 64 / 80 / 96 registers (0: the
# compiler's 112-128), reduces looping too (CLPRIM_SEGMENT_LOOP_REDUCE=1), and
# a run's head bytes read as one 8-byte word; H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_SEGMENT_LOOP_REDUCE=1
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for r in 0 64 80 96; do
  for f in reduce-keys reduce-flags scan-keys scan-flags scan-offsets; do
    CLPRIM_SEGMENT_LOOP_MAX_REGS=$r $B --preset large --segmented $f --csv $R/r${r}_$f.csv > $R/r${r}_$f.txt 2>&1
  done
done
timeout 150 ctest --test-dir /tmp/b -R "test_segment" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
