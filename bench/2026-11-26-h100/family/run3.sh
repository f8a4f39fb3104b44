#!/bin/bash
# Issue 34: SORT_QUERIES for random queries, merge's larger tiles, top-k's 13-bit first digit,
# the sliced PRIVATE histogram of 65,536 bins; NVIDIA test_search. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
f() { echo "$1: $(grep ^268435456 $2 | tr -s ' ' | tr '\n' '|')" >> $R/figures.txt; }
timeout 100 $B --search lower --queries random --type int32 --preset large --algorithms sort-queries --reps 3 --batch 0 > $R/search_random.txt 2>&1; f "search random" $R/search_random.txt
timeout 60 $B --search lower --queries sorted --type int32 --preset large --algorithms window,sort-queries --reps 3 --batch 0 > $R/search_sorted.txt 2>&1; f "search sorted" $R/search_sorted.txt
for it in 27 31; do CLPRIM_MERGE_ITEMS=$it timeout 40 $B --merge keys --type int32 --preset large --algorithms tiled --reps 7 --batch 0 > $R/merge_i$it.txt 2>&1; f "merge items $it" $R/merge_i$it.txt; done
for db in 13; do CLPRIM_TOP_K_DIGIT_BITS=$db timeout 60 $B --top-k 16,1000 --type float --keys uniform --preset large --algorithms radix-select --reps 5 --batch 0 > $R/topk_d$db.txt 2>&1; f "top-k digit $db" $R/topk_d$db.txt; done
timeout 90 $B --histogram uint32 --preset large --algorithms private,auto --reps 5 --batch 0 > $R/hist_uint32.txt 2>&1; f "histogram uint32" $R/hist_uint32.txt
(cd /tmp/b && timeout 150 stdbuf -oL ./tests/test_search > $R/test_search.log 2>&1; echo "test_search rc $?" >> $R/tests.txt)
cat $R/tests.txt $R/figures.txt
cd $OUT && tar czf r3.tgz r && rm -rf r
