#!/bin/bash
# Compaction back on its own tile-prefix block (the shared one cost it), the
# rest on the engine: compaction's figures and its tests on one H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)
for op in select select-flags partition partition-reversed unique rle; do
  printf "%-20s " $op
  $B --preset large --compact $op --algorithms single-pass --reps 7 --batch 0 2>&1 | grep 268435456 | awk '{print $(NF-3)}'
done
timeout 120 ctest --test-dir /tmp/b -R "test_compact" --output-on-failure 2>&1 | tail -3
