#!/bin/bash
# Issue 34: SORT_QUERIES at 2^28 (run3 timed out in the host check), merge tiles around 23,
# top-k with the next tile's loads in flight and more work-groups; NVIDIA test_top_k. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
f() { echo "$1: $(grep ^268435456 $2 | tr -s ' ' | tr '\n' '|')" >> $R/figures.txt; }
for g in 4 8 16; do CLPRIM_TOP_K_GROUPS_PER_CU=$g timeout 60 $B --top-k 16,1000 --type float --keys uniform --preset large --algorithms radix-select --reps 5 --batch 0 > $R/topk_g$g.txt 2>&1; f "top-k groups $g" $R/topk_g$g.txt; done
for c in "256 21" "256 23" "256 25" "512 21" "512 23"; do set -- $c
  CLPRIM_MERGE_WG_SIZE=$1 CLPRIM_MERGE_ITEMS=$2 timeout 40 $B --merge keys --type int32 --preset large --algorithms tiled --reps 7 --batch 0 > $R/merge_$1_$2.txt 2>&1; f "merge wg $1 items $2" $R/merge_$1_$2.txt; done
(cd /tmp/b && timeout 120 stdbuf -oL ./tests/test_top_k > $R/test_top_k.log 2>&1; echo "test_top_k rc $?" >> $R/tests.txt)
timeout 280 $B --search lower --queries random --type int32 --preset large --algorithms sort-queries --reps 2 --batch 0 > $R/search_random.txt 2>&1; f "search random" $R/search_random.txt
cat $R/tests.txt $R/figures.txt
cd $OUT && tar czf r4.tgz r && rm -rf r
