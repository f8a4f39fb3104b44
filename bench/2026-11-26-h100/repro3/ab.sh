#!/bin/bash
# Issue 33, same machine: double RUN_TO_RUN with the one-level ordered walk (e913432, in
# old-src/) against the two-level chain (this tree), NONE beside each, 2^24 and 2^28.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/ab; mkdir -p $R
(cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j8 --target clprim-bench >/dev/null 2>&1) &
(cmake -S old-src -B /tmp/bo -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/bo -j8 --target clprim-bench >/dev/null 2>&1) &
wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/when.txt
export CLPRIM_DEVICE=NVIDIA
for k in 1 2; do for v in b bo; do for r in none run-to-run; do
  CLPRIM_CACHE_DIR=/tmp/c_$v timeout 40 /tmp/$v/tools/clprim-bench --type double --algorithms decoupled-lookback --preset 24,28 --repro $r --reps 11 --batch 0 > $R/${v}_${r}_$k.txt 2>&1
  echo "$v $r $k: $(grep -E '^(16777216|268435456) ' $R/${v}_${r}_$k.txt | awk '{printf "%s %s us %s | ", $1, $3, $7}')"
done; done; done | tee $R/table.txt
cd $OUT && tar czf ab.tgz ab && rm -rf ab
