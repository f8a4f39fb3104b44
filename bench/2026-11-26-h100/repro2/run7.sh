#!/bin/bash
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/e; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
B=/tmp/b/tools/clprim-bench
one() { local n=$1 t=$2 r=$3 o=$4; shift 4
  env "$@" CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/c_$n CLPRIM_BUILD_OPTIONS="$o" timeout 30 $B --type $t --algorithms decoupled-lookback \
    --preset 24,28 --repro $r --reps 11 --batch 0 > $R/$n.txt 2>&1
  echo "$n: $(grep -E '^(16777216|268435456) ' $R/$n.txt | awk '{printf "%s %s us %s | ", $1, $3, $7}')"; }
{ one none_d double none ""
one rtr_d double run-to-run ""
one treefold_d double run-to-run "-DLB_EXP_TREEFOLD=1"
one rtr_d128 double run-to-run "" CLPRIM_REPRO_WG_SIZE=128
one treefold_d128 double run-to-run "-DLB_EXP_TREEFOLD=1" CLPRIM_REPRO_WG_SIZE=128
one rtr_d_g4 double run-to-run "" CLPRIM_SP_GROUPS_PER_CU=4
one rtr_d_s512 double run-to-run "" CLPRIM_REPRO_WG_SIZE=512 CLPRIM_SP_TILE_ITEMS=8
CLPRIM_DEVICE=NVIDIA timeout 60 $B --type double --algorithms decoupled-lookback --repro run-to-run --repeat-check 100 --preset 24 | tail -1
CLPRIM_DEVICE=NVIDIA timeout 60 $B --type float --algorithms auto --repro run-to-run --repeat-check 200 --preset 24 | tail -1; } 2>&1 | tee $R/table.txt
cd hist-src && ln -sf ../.gpu .gpu && sed 's#/tmp/b\b#/tmp/bh#g; s#\$OUT/r#$OUT/h#g; s#tar czf r1.tgz r && rm -rf r#tar czf h1.tgz h \&\& rm -rf h#' bench/2026-11-26-h100/hist/run1.sh > /tmp/h.sh && bash /tmp/h.sh
cd $OUT && tar czf e7.tgz e && rm -rf e
