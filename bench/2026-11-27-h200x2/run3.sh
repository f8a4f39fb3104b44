#!/bin/bash
# 2026-11-27, the two-GPU machine (two H100 again?). Issue 35 after run2: pieces of 0.5, 1 and 2 MiB
# for 2^30 keys on two ranks; the same with Open MPI's CMA single copy asked for; weak scaling at 3
# ranks (the benchmark's even shares for MPI_Alltoallv had sent the rest to the wrong rank).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/h3; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $R/cmake.log 2>&1 && cmake --build /tmp/b -j32 >/dev/null 2>&1 || { echo build failed; tail $R/cmake.log; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_h
M="mpirun --allow-run-as-root --oversubscribe"
BM=/tmp/b/tools/clprim-bench-mpi
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; mpirun --version | head -1) > $R/when.txt
for pb in 524288 1048576 2097152; do
  CLPRIM_MPI_PIECE_BYTES=$pb timeout 60 $M -x CLPRIM_MPI_PIECE_BYTES -np 2 $BM --sort --n $((1<<30)) --reps 5 > $R/sort_np2_pb$pb.txt 2>&1
  echo "pieces $pb: $(grep -E 'clprim_mpi_sort|Alltoallv|bound' $R/sort_np2_pb$pb.txt | tr -s ' ' | tr '\n' '|')"
done
CLPRIM_MPI_PIECE_BYTES=1048576 timeout 60 $M --mca btl_vader_single_copy_mechanism cma -x CLPRIM_MPI_PIECE_BYTES -np 2 $BM --sort --n $((1<<30)) --reps 5 > $R/sort_np2_cma.txt 2>&1
echo "cma: $(grep -E 'clprim_mpi_sort|Alltoallv|bound|rror' $R/sort_np2_cma.txt | head -5 | tr -s ' ' | tr '\n' '|')"
CUDA_VISIBLE_DEVICES=0 timeout 60 $M -x CUDA_VISIBLE_DEVICES -np 3 $BM --sort --n $((3<<28)) --reps 5 > $R/weak_np3.txt 2>&1
echo "weak np 3: $(grep -E 'clprim_mpi_sort|local|pinned|Alltoallv|bound' $R/weak_np3.txt | tr -s ' ' | tr '\n' '|')"
cat $R/when.txt
cd $OUT && tar czf h3.tgz h3 && rm -rf h3
