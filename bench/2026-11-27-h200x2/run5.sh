#!/bin/bash
# 2026-11-27, the two-GPU machine. Issue 35 after run4 (a USE_HOST_PTR wrapper makes shared-window
# memory stage at the pinned rate): clprim_mpi_sort through the shared window (now the default on
# one host) against messages (CLPRIM_MPI_SHARED=0), 2^30 keys on two ranks, pieces of 2 and 8 MiB;
# weak scaling 1-4 ranks on one GPU; NVIDIA's test_mpi.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/h5; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $R/cmake.log 2>&1 && cmake --build /tmp/b -j32 >/dev/null 2>&1 || { echo build failed; tail $R/cmake.log; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_h
M="mpirun --allow-run-as-root --oversubscribe -x CLPRIM_MPI_SHARED -x CLPRIM_MPI_PIECE_BYTES -x CUDA_VISIBLE_DEVICES"
BM=/tmp/b/tools/clprim-bench-mpi
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
g() { grep -E 'clprim_mpi_sort|local|pinned|bound' $1 | tr -s ' ' | tr '\n' '|'; }
export CLPRIM_MPI_SHARED=1 CLPRIM_MPI_PIECE_BYTES=0
timeout 120 $M -np 2 $BM --sort --n $((1<<30)) --reps 7 > $R/shared_2m.txt 2>&1; cat $R/shared_2m.txt
CLPRIM_MPI_PIECE_BYTES=8388608 timeout 90 $M -np 2 $BM --sort --n $((1<<30)) --reps 5 > $R/shared_8m.txt 2>&1; echo "shared 8 MiB: $(g $R/shared_8m.txt)"
CLPRIM_MPI_SHARED=0 timeout 90 $M -np 2 $BM --sort --n $((1<<30)) --reps 5 > $R/messages_2m.txt 2>&1; echo "messages 2 MiB: $(g $R/messages_2m.txt)"
for np in 2 3 4; do
  CUDA_VISIBLE_DEVICES=0 timeout 90 $M -np $np $BM --sort --n $((np<<28)) --reps 5 > $R/weak_np$np.txt 2>&1
  echo "weak np $np: $(g $R/weak_np$np.txt)"
done
(cd /tmp/b && timeout 100 ctest -R "mpi" --output-on-failure > $R/tests.txt 2>&1; echo "tests rc $?" >> $R/tests.txt); grep -E "Passed|Failed|rc" $R/tests.txt
cd $OUT && tar czf h5.tgz h5 && rm -rf h5
