#!/bin/bash
# Issue 29: the histogram with a tile's keys all loaded before any is counted. Timelines
# (tools/cl_trace.c) and figures of uint32 keys / pairs, uint64, float (random bits and CUB's
# narrow floats), 16 distinct and sorted keys; CUB 13 in the same lease (uint32, pairs,
# uint64, both floats); NVIDIA test_sort's one-sweep tests. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cub tools/cub_sort.cu > $R/nvcc_cub.log 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
gcc -O2 -shared -fPIC tools/cl_trace.c -o /tmp/cl_trace.so -ldl -lOpenCL || exit 1
wait
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
for c in "uniform uint32 0" "uniform uint32 4" "uniform uint64 0" "uniform float 0" "narrow float 0" "few uint32 0" "sorted uint32 0"; do
  set -- $c
  CL_TRACE_FILE=$R/trace_$1_$2_$3.txt LD_PRELOAD=/tmp/cl_trace.so $B --sort $1 --type $2 --values $3 --preset large --algorithms onesweep --reps 5 --batch 0 > $R/bench_$1_$2_$3.txt 2>&1
  echo "$c: $(grep ^268435456 $R/bench_$1_$2_$3.txt)" >> $R/figures.txt
done
/tmp/cub --n 2^28 --reps 5 --segments '' --types 1 > $R/cub.csv 2>&1
(cd /tmp/b && for t in test_onesweep test_bit_ranges test_wide; do
  TU_FILTER="$t" timeout 150 stdbuf -oL ./tests/test_sort > $R/test_$t.log 2>&1; echo "$t rc $?" >> $R/tests.txt; done)
python3 bench/2026-11-26-h100/sortline/timeline.py $R/trace_uniform_uint32_0.txt $R/trace_uniform_uint64_0.txt | grep -E "==|histogram |whole"
cat $R/tests.txt $R/cub.csv $R/figures.txt
cd $OUT && tar czf r3.tgz r && rm -rf r
