#!/bin/bash
# The whole suite on NVIDIA's OpenCL (H100) after the day's merges (merge, top-k, the
# reproducibility levels in the look-back, searches, histogram slices), then top-k's tile
# (knobs). H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
(cd /tmp/b && timeout 420 ctest -j 8 --timeout 400 -E "test_mpi|test_soak|test_fuzz" > $R/ctest.txt 2>&1; echo "ctest rc $?" >> $R/ctest.txt)
B=/tmp/b/tools/clprim-bench
f() { echo "$1: $(grep ^268435456 $2 | tr -s ' ' | tr '\n' '|')" >> $R/figures.txt; }
for c in "256 8" "256 32" "512 16"; do set -- $c
  CLPRIM_TOP_K_WG_SIZE=$1 CLPRIM_TOP_K_ITEMS=$2 timeout 30 $B --top-k 100 --type float --keys uniform --preset large --algorithms radix-select --reps 5 --batch 0 > $R/topk_$1_$2.txt 2>&1; f "top-k wg $1 items $2" $R/topk_$1_$2.txt; done
grep -E "tests passed|Failed|Timeout|\*\*\*|rc " $R/ctest.txt | head -30
cat $R/figures.txt
cd $OUT && tar czf r5.tgz r && rm -rf r
