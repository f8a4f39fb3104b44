#!/bin/bash
# 2026-11-27, H100. Issue 33: the PORTABLE scan in one pass (CLPRIM_PORTABLE_SINGLE_PASS=1,
# cl/portable_sp.cl) against its three launches and NONE, float and double, 2^24 and 2^28; PORTABLE
# reduce against NONE; NVIDIA's test_repro with the single pass. Issue 35: is MPI here; the MPI sort
# on one rank (2^28) as a first breakdown.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r1; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $R/cmake.log 2>&1 && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; tail $R/cmake.log; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_r1
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; which mpirun mpicc; ls /tmp/b/tools) > $R/when.txt
f() { echo "$1: $(grep -E "^${3:-268435456} " $2 | tr -s ' ' | tr '\n' '|')" | tee -a $R/figures.txt; }
for t in float double; do
  for m in scan reduce; do
    A=$([ $m = reduce ] && echo "--reduce --algorithms fast" || echo "--algorithms auto")
    timeout 60 $B $A --type $t --preset 24,28 --repro none --reps 11 --batch 0 > $R/${m}_${t}_none.txt 2>&1
    f "$m $t none 2^24" $R/${m}_${t}_none.txt 16777216; f "$m $t none 2^28" $R/${m}_${t}_none.txt
    timeout 60 $B $A --type $t --preset 24,28 --repro portable --reps 11 --batch 0 > $R/${m}_${t}_port.txt 2>&1
    f "$m $t portable 2^24" $R/${m}_${t}_port.txt 16777216; f "$m $t portable 2^28" $R/${m}_${t}_port.txt
  done
  CLPRIM_PORTABLE_SINGLE_PASS=1 timeout 60 $B --algorithms auto --type $t --preset 24,28 --repro portable --reps 11 --batch 0 > $R/scan_${t}_portsp.txt 2>&1
  f "scan $t portable-sp 2^24" $R/scan_${t}_portsp.txt 16777216; f "scan $t portable-sp 2^28" $R/scan_${t}_portsp.txt
done
(cd /tmp/b && CLPRIM_PORTABLE_SINGLE_PASS=1 timeout 200 ctest -R "test_repro" --output-on-failure > $R/tests.txt 2>&1; echo "tests rc $?" >> $R/tests.txt)
tail -3 $R/tests.txt
if [ -x /tmp/b/tools/clprim-bench-mpi ]; then
  timeout 90 mpirun --allow-run-as-root --oversubscribe -np 1 /tmp/b/tools/clprim-bench-mpi --sort --n $((1<<28)) --reps 5 > $R/mpi_sort1.txt 2>&1
  cat $R/mpi_sort1.txt | tee -a $R/figures.txt
fi
cat $R/when.txt
cd $OUT && tar czf r1.tgz r1 && rm -rf r1
