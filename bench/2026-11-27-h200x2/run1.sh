#!/bin/bash
# 2026-11-27, two H200 (nvidia-h200-x2). Issue 35: clprim_mpi_sort of 2^30 uint32 keys, two ranks
# (one GPU each) against one GPU sorting all 2^30 (one rank), with the staged bound (every key of a
# part down and up through pinned memory) and MPI_Alltoallv timed beside it; the pieces' size
# (CLPRIM_MPI_PIECE_BYTES) at 2, 8 (default) and 32 MiB; NVIDIA's test_mpi. Issue 33: PORTABLE
# against NONE on one H200 (float and double scan and reduce, 2^24 and 2^28).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/h; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $R/cmake.log 2>&1 && cmake --build /tmp/b -j32 >/dev/null 2>&1 || { echo build failed; tail $R/cmake.log; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_h
M="mpirun --allow-run-as-root --oversubscribe"
BM=/tmp/b/tools/clprim-bench-mpi
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; grep -m1 "model name" /proc/cpuinfo) > $R/when.txt
timeout 120 $M -np 1 $BM --sort --n $((1<<30)) --reps 5 > $R/sort_np1.txt 2>&1; cat $R/sort_np1.txt
timeout 150 $M -np 2 $BM --sort --n $((1<<30)) --reps 7 > $R/sort_np2.txt 2>&1; cat $R/sort_np2.txt
for pb in 2097152 33554432; do
  CLPRIM_MPI_PIECE_BYTES=$pb timeout 100 $M -x CLPRIM_MPI_PIECE_BYTES -np 2 $BM --sort --n $((1<<30)) --reps 5 > $R/sort_np2_pb$pb.txt 2>&1
  echo "pieces $pb: $(grep -E 'clprim_mpi_sort|bound' $R/sort_np2_pb$pb.txt | tr -s ' ' | tr '\n' '|')"
done
(cd /tmp/b && timeout 150 ctest -R "mpi" --output-on-failure > $R/tests.txt 2>&1; echo "tests rc $?" >> $R/tests.txt); tail -3 $R/tests.txt
B=/tmp/b/tools/clprim-bench
f() { echo "$1: $(grep -E "^${3:-268435456} " $2 | awk '{print $3, $7}' | tr '\n' '|')" | tee -a $R/figures.txt; }
for t in float double; do for m in scan reduce; do for r in none portable; do
  A=$([ $m = reduce ] && echo "--reduce --algorithms fast" || echo "--algorithms auto")
  timeout 50 $B $A --type $t --preset 24,28 --repro $r --reps 11 --batch 0 > $R/${m}_${t}_$r.txt 2>&1
  f "$m $t $r 2^24" $R/${m}_${t}_$r.txt 16777216; f "$m $t $r 2^28" $R/${m}_${t}_$r.txt
done; done; done
cat $R/when.txt
cd $OUT && tar czf h.tgz h && rm -rf h
