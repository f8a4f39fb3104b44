#!/bin/bash
# Issue 34: where top-k's and merge's time goes (tools/cl_trace.c timelines), merge's tile
# (knobs), the sliced PRIVATE histogram of 65,536 bins at small n (it passed 60 s at 2^26 in
# run1), uint8 with atomic_add in local memory. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
gcc -O2 -shared -fPIC tools/cl_trace.c -o /tmp/cl_trace.so -ldl -lOpenCL || exit 1
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
f() { echo "$1: $(grep ^268435456 $2 | tr -s ' ' | tr '\n' '|')" >> $R/figures.txt; }
CL_TRACE_FILE=$R/trace_topk.txt LD_PRELOAD=/tmp/cl_trace.so timeout 60 $B --top-k 100 --type float --keys uniform --preset large --algorithms radix-select --reps 3 --batch 0 > $R/topk.txt 2>&1; f "top-k 100" $R/topk.txt
CL_TRACE_FILE=$R/trace_merge.txt LD_PRELOAD=/tmp/cl_trace.so timeout 60 $B --merge keys --type int32 --preset large --algorithms tiled --reps 3 --batch 0 > $R/merge.txt 2>&1; f "merge" $R/merge.txt
for c in "128 15" "512 15" "256 13" "256 17" "256 23"; do set -- $c
  CLPRIM_MERGE_WG_SIZE=$1 CLPRIM_MERGE_ITEMS=$2 timeout 40 $B --merge keys --type int32 --preset large --algorithms tiled --reps 5 --batch 0 > $R/merge_$1_$2.txt 2>&1; f "merge wg $1 items $2" $R/merge_$1_$2.txt; done
timeout 60 $B --histogram uint8 --preset large --algorithms private --reps 5 --batch 0 > $R/hist_uint8.txt 2>&1; f "histogram uint8" $R/hist_uint8.txt
CL_TRACE_FILE=$R/trace_h32.txt LD_PRELOAD=/tmp/cl_trace.so timeout 60 $B --histogram uint32 --preset short --algorithms private,global --reps 2 --batch 0 > $R/hist_uint32_short.txt 2>&1
tail -4 $R/hist_uint32_short.txt >> $R/figures.txt
cat $R/figures.txt
for t in topk merge h32; do echo "== $t"; python3 bench/2026-11-26-h100/family/tail.py $R/trace_$t.txt 14 2>&1; done
cd $OUT && tar czf r2.tgz r && rm -rf r
