#!/bin/bash
# Issue 34: first H100 figures of clprim_merge and clprim_top_k, the histograms after the shift
# and the slices; NVIDIA test_merge, test_top_k, test_histogram. CUB 13's merge in the same lease.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cubm tools/cub_merge.cu > $R/nvcc_cubm.log 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
wait
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
f() { echo "$1: $(grep ^268435456 $2 | tr -s ' ' | tr '\n' '|')" >> $R/figures.txt; }
timeout 60 $B --merge keys --type int32 --preset large --reps 7 --batch 0 > $R/merge_keys.txt 2>&1; f "merge keys" $R/merge_keys.txt
timeout 60 $B --merge pairs --values 4 --type int32 --preset large --reps 5 --batch 0 > $R/merge_pairs.txt 2>&1; f "merge pairs" $R/merge_pairs.txt
for it in 11 19; do CLPRIM_MERGE_ITEMS=$it timeout 40 $B --merge keys --type int32 --preset large --algorithms tiled --reps 5 --batch 0 > $R/merge_i$it.txt 2>&1; f "merge keys items $it" $R/merge_i$it.txt; done
timeout 90 $B --top-k 16,100,1000 --type float --keys uniform --preset large --algorithms radix-select --reps 5 --batch 0 > $R/topk_uniform.txt 2>&1; f "top-k uniform" $R/topk_uniform.txt
timeout 90 $B --top-k 16,100,1000 --type float --keys unit --preset large --algorithms radix-select --reps 5 --batch 0 > $R/topk_unit.txt 2>&1; f "top-k unit" $R/topk_unit.txt
for h in uint8 float uint32; do
  timeout 60 $B --histogram $h --preset large --algorithms private --reps 5 --batch 0 > $R/hist_$h.txt 2>&1; f "histogram $h" $R/hist_$h.txt
done
timeout 60 /tmp/cubm --n 2^28 --reps 11 > $R/cub_merge.csv 2>&1
(cd /tmp/b && for t in test_merge test_top_k test_histogram; do timeout 120 stdbuf -oL ./tests/$t > $R/$t.log 2>&1; echo "$t rc $?" >> $R/tests.txt; done)
cat $R/tests.txt $R/cub_merge.csv $R/figures.txt
cd $OUT && tar czf r1.tgz r && rm -rf r
