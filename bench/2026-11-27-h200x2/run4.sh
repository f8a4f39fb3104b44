#!/bin/bash
# 2026-11-27, the two-GPU machine. Issue 35: could a transport without MPI's copies stage at the
# pinned rate? clprim-bench-mpi --sort now also times staging through an MPI shared-memory window
# (MPI_Win_allocate_shared on the host's ranks): plain reads and writes, through the segment wrapped
# as a CL_MEM_USE_HOST_PTR buffer (copy, map, copy), plain again once wrapped; and one memcpy of half
# a part from the next rank's segment. Two ranks, 2^30 keys.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/h4; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $R/cmake.log 2>&1 && cmake --build /tmp/b -j32 >/dev/null 2>&1 || { echo build failed; tail $R/cmake.log; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_h
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
timeout 200 mpirun --allow-run-as-root --oversubscribe -np 2 /tmp/b/tools/clprim-bench-mpi --sort --n $((1<<30)) --reps 5 > $R/sort_np2.txt 2>&1; cat $R/sort_np2.txt
cat $R/when.txt
cd $OUT && tar czf h4.tgz h4 && rm -rf h4
