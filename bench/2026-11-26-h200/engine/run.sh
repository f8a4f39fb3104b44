#!/bin/bash
# Issue 28 on one H200: compaction's own tile-prefix block against the shared clprim_tile_prefix
# (wip/compact-tile-prefix's cl/compact.cl, carried as .wip/compact.cl), select by uint8 flags and
# partition (rejected reversed) beside CUB 13 in the same lease, and Nsight Compute on clprim's
# compact_single_pass (tools/nv_ptx_harness.cu compact) and on CUB's kernels for the two misses.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_family.cu -o /tmp/cub_family > $R/nvcc_family.log 2>&1;
 nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/h tools/nv_ptx_harness.cu -lcuda > $R/nvcc_h.log 2>&1) &
rm -rf /tmp/w && mkdir /tmp/w && cp -r CMakeLists.txt cmake cl include src tests tools examples docs README.md LICENSE /tmp/w/ 2>/dev/null
cp .wip/compact.cl /tmp/w/cl/compact.cl
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
cmake -S /tmp/w -B /tmp/bw -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/bw -j16 --target clprim-bench >/dev/null 2>&1 || echo wip build failed
wait
export CLPRIM_DEVICE=NVIDIA
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt; cat $R/when.txt
for op in select-flags partition-reversed select; do
  for v in b bw; do
    /tmp/$v/tools/clprim-bench --compact $op --preset large --algorithms single-pass --reps 5 > $R/${v}_$op.txt 2>&1
    echo "$op $v: $(grep ^268435456 $R/${v}_$op.txt | awk '{print $(NF-3)}')" >> $R/figures.txt
  done
done
/tmp/cub_family --n 2^28 --skip 67108864 --reps 5 > $R/cub.csv 2> $R/cub.txt
for op in select-flags partition-reversed; do
  CLPRIM_CACHE_DIR=/tmp/cc_$op /tmp/b/tools/clprim-bench --compact $op --preset short --algorithms single-pass --reps 1 > /dev/null 2>&1
done
F=$(grep -la '\.entry compact_single_pass' /tmp/cc_select-flags/* | head -1)
P=$(grep -la '\.entry compact_single_pass' /tmp/cc_partition-reversed/* | head -1)
COMPACT=flags timeout 60 /tmp/h compact $F 4 0 > $R/h_flags.txt 2>&1
COMPACT=partition-reversed timeout 60 /tmp/h compact $P 4 0 > $R/h_prev.txt 2>&1
for m in flags:$F partition-reversed:$P; do
  IFS=: read name file <<< "$m"
  COMPACT=$name PROFILE=1 timeout 150 ncu --set full --import-source no -k regex:compact_single_pass --launch-skip 2 --launch-count 1 -o /tmp/o_$name /tmp/h compact $file 4 0 > $R/ncu_$name.log 2>&1
  ncu -i /tmp/o_$name.ncu-rep --page details > $R/details_$name.txt 2>&1
  ncu -i /tmp/o_$name.ncu-rep --page raw --csv > $R/raw_$name.csv 2>&1
done
timeout 200 ncu --set full --import-source no -k regex:"Select|Partition" --launch-count 6 -o /tmp/o_cub /tmp/cub_family --n 2^28 --skip 67108864 --reps 1 > $R/ncu_cub.log 2>&1
ncu -i /tmp/o_cub.ncu-rep --page details > $R/details_cub.txt 2>&1
ncu -i /tmp/o_cub.ncu-rep --page raw --csv > $R/raw_cub.csv 2>&1
cat $R/figures.txt; grep -E "select|partition" $R/cub.csv; tail -3 $R/h_flags.txt $R/h_prev.txt
for x in flags partition-reversed cub; do echo "== $x"; grep -E "^  [a-zA-Z].*\(|^\s+(Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|Grid Size|Block Size|L2 Hit Rate|Warp Cycles Per Issued)" $R/details_$x.txt | head -60; done
cd $OUT && tar czf r.tgz r && rm -rf r
