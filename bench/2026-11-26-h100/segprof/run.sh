#!/bin/bash
# Why the looping single pass is slower than one tile per work-group for a
# reduce by keys (H100): both kernels' PTX run through
# tools/nv_ptx_harness.cu (segreduce), timed and under Nsight Compute.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/h tools/nv_ptx_harness.cu -lcuda || exit 1
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
CLPRIM_SEGMENT_LOOP_ITEMS=16 /tmp/b/tools/clprim-info 2>&1 | grep " segment " > $R/knob.txt
CLPRIM_CACHE_DIR=/tmp/c1 CLPRIM_SEGMENT_LOOP_REDUCE=1 $B --preset large --segmented reduce-keys > $R/loop.txt 2>&1
CLPRIM_CACHE_DIR=/tmp/c0 $B --preset large --segmented reduce-keys > $R/old.txt 2>&1
pick() { for f in $1/*.bin; do grep -q ".entry $2" $f && echo $f; done | head -1; }
L=$(pick /tmp/c1 seg_loop); O=$(pick /tmp/c0 seg_single_pass)
echo "loop $L old $O" > $R/files.txt
for g in 264 528 792; do KERNEL=seg_loop /tmp/h segreduce $L 4 $g >> $R/harness.txt 2>&1; done
KERNEL=seg_single_pass /tmp/h segreduce $O 4 65536 >> $R/harness.txt 2>&1
PROFILE=1 KERNEL=seg_loop timeout 200 ncu --set full -k regex:seg_loop --launch-skip 2 --launch-count 1 /tmp/h segreduce $L 4 792 > $R/ncu_loop.txt 2>&1
PROFILE=1 KERNEL=seg_single_pass timeout 200 ncu --set full -k regex:seg_single --launch-skip 2 --launch-count 1 /tmp/h segreduce $O 4 65536 > $R/ncu_old.txt 2>&1
cat $R/knob.txt | cut -c1-200; cat $R/harness.txt
for f in $R/ncu_loop.txt $R/ncu_old.txt; do echo "== $f"; grep -E "^\s+(Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Compute \(SM\) Throughput|Issue Slots Busy|Warp Cycles Per Issued|Block Limit Registers|L1/TEX Hit|L2 Hit)" $f | head -14; done
cd $OUT && tar czf r.tgz r && rm -rf r
