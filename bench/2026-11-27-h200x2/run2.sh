#!/bin/bash
# 2026-11-27, the two-GPU machine (given as two H100 this time). Issue 35, after run1 (NVIDIA refused
# the sample's rectangle read: its last row checked against the buffer whole; the temporary now holds
# whole rows): clprim_mpi_sort of 2^30 uint32 keys on two ranks, one GPU each; pieces of 2 and 32 MiB;
# weak scaling, 2^28 keys per rank on 1-4 ranks sharing one GPU (CUDA_VISIBLE_DEVICES=0); test_mpi.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/h2; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $R/cmake.log 2>&1 && cmake --build /tmp/b -j32 >/dev/null 2>&1 || { echo build failed; tail $R/cmake.log; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_h
M="mpirun --allow-run-as-root --oversubscribe"
BM=/tmp/b/tools/clprim-bench-mpi
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
timeout 150 $M -np 2 $BM --sort --n $((1<<30)) --reps 7 > $R/sort_np2.txt 2>&1; cat $R/sort_np2.txt
for pb in 2097152 33554432; do
  CLPRIM_MPI_PIECE_BYTES=$pb timeout 100 $M -x CLPRIM_MPI_PIECE_BYTES -np 2 $BM --sort --n $((1<<30)) --reps 5 > $R/sort_np2_pb$pb.txt 2>&1
  echo "pieces $pb: $(grep -E 'clprim_mpi_sort|bound' $R/sort_np2_pb$pb.txt | tr -s ' ' | tr '\n' '|')"
done
for np in 1 2 3 4; do
  CUDA_VISIBLE_DEVICES=0 timeout 100 $M -x CUDA_VISIBLE_DEVICES -np $np $BM --sort --n $((np<<28)) --reps 5 > $R/weak_np$np.txt 2>&1
  echo "weak np $np: $(grep -E 'clprim_mpi_sort|local|pinned|Alltoallv|bound' $R/weak_np$np.txt | tr -s ' ' | tr '\n' '|')"
done
(cd /tmp/b && timeout 120 ctest -R "mpi" --output-on-failure > $R/tests.txt 2>&1; echo "tests rc $?" >> $R/tests.txt); grep -E "Passed|Failed|rc" $R/tests.txt
cd $OUT && tar czf h2.tgz h2 && rm -rf h2
