#!/bin/bash
# 2026-11-27, H100. Issue 33: the one-pass PORTABLE scan after the chunk folds (S1, R1) and the
# level-1 totals (L2) are published before the reads that follow them (probe.sh: the time had grown
# with the spins allowed, a chain), against NONE and the three launches; test_repro with it.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r2; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $R/cmake.log 2>&1 && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_r2
B=/tmp/b/tools/clprim-bench
f() { echo "$1: $(grep -E "^${3:-268435456} " $2 | awk '{print $3, $7}' | tr '\n' '|')" | tee -a $R/figures.txt; }
for t in float double; do
  for sp in 0 1; do
    CLPRIM_PORTABLE_SINGLE_PASS=$sp timeout 60 $B --algorithms auto --type $t --preset 24,28 --repro portable --reps 11 --batch 0 > $R/scan_${t}_sp$sp.txt 2>&1
    f "scan $t portable sp=$sp 2^24" $R/scan_${t}_sp$sp.txt 16777216; f "scan $t portable sp=$sp 2^28" $R/scan_${t}_sp$sp.txt
  done
  timeout 60 $B --algorithms auto --type $t --preset 24,28 --repro none --reps 11 --batch 0 > $R/scan_${t}_none.txt 2>&1
  f "scan $t none 2^24" $R/scan_${t}_none.txt 16777216; f "scan $t none 2^28" $R/scan_${t}_none.txt
done
(cd /tmp/b && CLPRIM_PORTABLE_SINGLE_PASS=1 timeout 200 ctest -R "test_repro" --output-on-failure > $R/tests.txt 2>&1; echo "tests rc $?" >> $R/tests.txt)
tail -3 $R/tests.txt
cd $OUT && tar czf r2.tgz r2 && rm -rf r2
