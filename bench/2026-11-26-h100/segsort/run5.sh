#!/bin/bash
# Issue 29, segmented sort step 5: short-segment windows in a kernel of their own (sort_segments_small, not bounded to 64 registers), each
# (all <= 32 keys) sorted one segment per work-item by a bitonic network in registers. 2^28 uint32
# keys in 10^5 / 10^7 / 10^3 equal segments, with 4-byte values too, SORT_SEG_SMALL 16 / 0 against
# the default 32; CUB 13 in the same lease; NVIDIA ctest of test_sort.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_sort.cu -o /tmp/cub_sort > /tmp/nvcc.log 2>&1 &
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null) > $R/when.txt
B=/tmp/b/tools/clprim-bench
r() { local name=$1; shift; local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" $B --sort uniform --type uint32 --preset large --reps 5 --batch 0 "$@" > $R/$name.txt 2>&1
  printf "%-28s %s\n" "$name" "$(grep ^268435456 $R/$name.txt | awk '{print $3, $5, $NF}' | tr '\n' ' ')"; }
for m in 100000 10000000 1000; do r s${m} X=1 -- --sort-segments $m; done
r s100000_v4 X=1 -- --sort-segments 100000 --values 4
r s10000000_v4 X=1 -- --sort-segments 10000000 --values 4
r s10000000_small16 CLPRIM_BUILD_OPTIONS="-D SORT_SEG_SMALL=16" -- --sort-segments 10000000
r s10000000_small64 CLPRIM_BUILD_OPTIONS="-D SORT_SEG_SMALL=64" -- --sort-segments 10000000
r whole X=1 -- --algorithms onesweep
wait
/tmp/cub_sort --reps 5 > $R/cub.csv 2> $R/cub.err; cat $R/cub.csv
timeout 150 ctest --test-dir /tmp/b -R "test_sort" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log
cd $OUT && tar czf r5.tgz r && rm -rf r
