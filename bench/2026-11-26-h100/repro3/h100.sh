#!/bin/bash
# Issue 33 on the H100 (the must's device): the two-level chain, NONE and RUN_TO_RUN, float and
# double, 2^24 and 2^28, one round (device time nearly spent).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/h; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/when.txt
export CLPRIM_DEVICE=NVIDIA
for t in double float; do for r in none run-to-run; do
  timeout 30 /tmp/b/tools/clprim-bench --type $t --algorithms decoupled-lookback --preset 24,28 --repro $r --reps 11 --batch 0 > $R/${t}_${r}.txt 2>&1
  echo "$t $r: $(grep -E '^(16777216|268435456) ' $R/${t}_${r}.txt | awk '{printf "%s %s us %s | ", $1, $3, $7}')"
done; done | tee $R/table.txt
cd $OUT && tar czf h.tgz h && rm -rf h
