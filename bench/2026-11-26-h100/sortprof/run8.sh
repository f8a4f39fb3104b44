#!/bin/bash
# Issue 29 step 8: 64-bit keys with the per-key loops unrolled for 4-byte keys only; NVIDIA
# test_onesweep with it. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench clprim_test_sort >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
$B --sort uniform --type uint64 --preset large --algorithms onesweep --reps 3 > $R/u64_row.txt 2>&1
echo "uint64 row: $(grep ^268435456 $R/u64_row.txt)"
TU_FILTER='test_onesweep' timeout 200 /tmp/b/tests/test_sort > $R/test_onesweep.log 2>&1; echo "test_onesweep rc $?"; tail -1 $R/test_onesweep.log
cd $OUT && tar czf r8.tgz r && rm -rf r
