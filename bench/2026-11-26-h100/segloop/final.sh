#!/bin/bash
# Issue 28 (segmented scans on the looping single pass) and issue 31 (the
# scan re-measured after the host changes): the committed code, CUB 13 on
# the same inputs, and NVIDIA's ctest of the touched primitives, one lease.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_family.cu -o /tmp/cub_family > /tmp/nvcc.log 2>&1 &
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null) > $R/when.txt
B=/tmp/b/tools/clprim-bench
$B --preset large --algorithms auto --csv $R/scan.csv > $R/scan.txt 2>&1
for f in scan-flags scan-keys scan-offsets reduce-flags reduce-keys reduce-offsets transform; do
  $B --preset large --segmented $f --csv $R/s_$f.csv > $R/s_$f.txt 2>&1
done
for L in 4 1000000; do
  for f in scan-flags scan-keys reduce-flags reduce-keys; do
    $B --preset large --segmented $f --segment-length $L --csv $R/L${L}_$f.csv > $R/L${L}_$f.txt 2>&1
  done
done
wait
/tmp/cub_family --n 2^28 --skip 67108864 > $R/cub.csv 2> $R/cub.txt
echo "cub rc $?" >> $R/cub.txt
# the reduce by keys (bounded to 80 registers) under Nsight Compute, through the harness
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/h tools/nv_ptx_harness.cu -lcuda
CLPRIM_CACHE_DIR=/tmp/c1 $B --preset short --segmented reduce-keys > /dev/null 2>&1
L=$(for f in /tmp/c1/*.bin; do grep -q ".entry seg_loop" $f && echo $f; done | head -1)
for g in 396 792; do KERNEL=seg_loop /tmp/h segreduce $L 4 $g >> $R/harness.txt 2>&1; done
PROFILE=1 KERNEL=seg_loop timeout 200 ncu --set full -k regex:seg_loop --launch-skip 2 --launch-count 1 /tmp/h segreduce $L 4 792 > $R/ncu_reduce_keys.txt 2>&1
timeout 240 ctest --test-dir /tmp/b -R "test_segment|test_scan$|test_lookback|test_fields|test_kernel_args" -j3 --output-on-failure > $R/ctest.log 2>&1
tail -4 $R/ctest.log; tail -12 $R/cub.txt; cat $R/harness.txt
grep -E "^\s+(Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Issue Slots Busy|Warp Cycles Per Issued|Eligible Warps|No Eligible)" $R/ncu_reduce_keys.txt
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-22s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
