#!/bin/bash
# The PTX NVIDIA's OpenCL compiler makes of the single-pass kernels, before
# old/ held `git archive 4568973` extracted (removed after the run).
# (old/ = 4568973) and after the engine: the disk cache keeps it.
. .gpu/device-env.sh >/dev/null 2>&1
(cmake -S old -B /tmp/a -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/a -j8 --target clprim-bench >/dev/null 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j8 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
wait
export CLPRIM_DEVICE=NVIDIA
for v in a b; do
  export CLPRIM_CACHE_DIR=$OUT/c$v
  B=/tmp/$v/tools/clprim-bench
  $B --preset short --algorithms auto --reps 1 --batch 0 > /dev/null 2>&1
  $B --preset short --compact select-flags --algorithms single-pass --reps 1 --batch 0 > /dev/null 2>&1
  $B --preset short --segmented scan-offsets --reps 1 --batch 0 > /dev/null 2>&1
done
cd $OUT && tar czf ptx.tgz ca cb && rm -rf ca cb && ls -la
