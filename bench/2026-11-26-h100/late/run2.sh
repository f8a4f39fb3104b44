#!/bin/bash
# 2026-11-26 (late), H100. Issue 33: the RUN_TO_RUN double scan's shape (the 8-byte row runs the
# ordered pass at 256 x 16, 12 groups per CU: run1 measured 1.053x NONE at 2^28, 1.113x at 2^24),
# work-group x elements per work-item x groups per CU through the knobs, NONE in the same run.
# Issue 32: NVIDIA's test_faults run to its end (every 8th K), its per-test clock printed.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r2; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_r2
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
f() { echo "$1: $(grep -E "^(16777216|268435456) " $2 | awk '{printf "%s %s us %s | ", $1, $3, $7}')" | tee -a $R/figures.txt; }
sc() { # name [VAR=value...]
  local name=$1; shift
  env "$@" timeout 40 $B --type double --algorithms decoupled-lookback --preset 24,28 --repro run-to-run --reps 11 --batch 0 > $R/$name.txt 2>&1; f "$name" $R/$name.txt; }
timeout 40 $B --type double --algorithms decoupled-lookback --preset 24,28 --repro none --reps 11 --batch 0 > $R/none.txt 2>&1; f none $R/none.txt
sc row
for w in 128 512; do sc wg$w CLPRIM_REPRO_WG_SIZE=$w; done
for i in 8 12 20 24; do sc items$i CLPRIM_SP_TILE_ITEMS=$i; done
for g in 4 6 8; do sc groups$g CLPRIM_SP_GROUPS_PER_CU=$g; done
sc regs96 CLPRIM_SP_MAX_REGS=96
sc wg512_items8 CLPRIM_REPRO_WG_SIZE=512 CLPRIM_SP_TILE_ITEMS=8
timeout 40 $B --type double --algorithms decoupled-lookback --preset 24,28 --repro none --reps 11 --batch 0 > $R/none2.txt 2>&1; f none2 $R/none2.txt
(cd /tmp/b && LD_PRELOAD=/tmp/b/tests/libclprim_fault.so CLPRIM_FAULT_STRIDE=2 CLPRIM_FAULT_STRIDE_SCALE=4 \
  timeout 430 stdbuf -oL ./tests/test_faults > $R/faults.log 2>&1; echo "faults rc $?" >> $R/faults.log)
grep -E "^\[|^#|rc" $R/faults.log | tail -30
cd $OUT && tar czf r2.tgz r2 && rm -rf r2
