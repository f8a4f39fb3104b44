#!/bin/bash
# The ordered walk with its three newest windows kept in registers (default)
# against reading them again (LB_EXP_NOSTASH), H100: float (its row) and
# double (its row, and 256 work-items x 16), against NONE.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
one() { # name, type, repro, options, env...
  local n=$1 t=$2 r=$3 o=$4; shift 4
  env "$@" CLPRIM_CACHE_DIR=/tmp/c_$n CLPRIM_BUILD_OPTIONS="$o" timeout 30 $B --type $t --algorithms decoupled-lookback \
    --preset 24,28 --repro $r --reps 11 --batch 0 > $R/$n.txt 2>&1
  echo "$n: $(grep -E '^(16777216|268435456) ' $R/$n.txt | awk '{printf "%s %s us %s | ", $1, $3, $7}')"; }
for k in 1 2; do
one none_f$k float none ""
one stash_f$k float run-to-run ""
one nostash_f$k float run-to-run "-DLB_EXP_NOSTASH=1"
one none_d$k double none ""
one stash_d$k double run-to-run ""
one nostash_d$k double run-to-run "-DLB_EXP_NOSTASH=1"
one stash_d256_$k double run-to-run "" CLPRIM_SP_WG_SIZE=256
one nostash_d256_$k double run-to-run "-DLB_EXP_NOSTASH=1" CLPRIM_SP_WG_SIZE=256
done | tee $R/table.txt
(cd /tmp/b && timeout 150 ./tests/test_repro > $R/test_repro.log 2>&1; echo "test_repro rc $?" | tee -a $R/table.txt)
cd $OUT && tar czf r5.tgz r && rm -rf r
