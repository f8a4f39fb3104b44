#!/bin/bash
# Where the looping reduce by keys spends its instructions: Nsight Compute's
# source page (SASS, executed instructions and stall samples per
# instruction) for seg_loop as the rows build it (80 registers), through
# tools/nv_ptx_harness.cu segreduce; H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/h tools/nv_ptx_harness.cu -lcuda || exit 1
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
CLPRIM_CACHE_DIR=/tmp/c1 /tmp/b/tools/clprim-bench --preset short --segmented reduce-keys > /dev/null 2>&1
L=$(for f in /tmp/c1/*.bin; do grep -q ".entry seg_loop" $f && echo $f; done | head -1)
KERNEL=seg_loop /tmp/h segreduce $L 4 396 > $R/harness.txt 2>&1
PROFILE=1 KERNEL=seg_loop timeout 300 ncu --set full --import-source no -k regex:seg_loop --launch-skip 2 --launch-count 1 -o /tmp/rep /tmp/h segreduce $L 4 396 > $R/ncu.log 2>&1
ncu -i /tmp/rep.ncu-rep --page source --csv --print-source sass > $R/sass.csv 2> $R/sass.err
ncu -i /tmp/rep.ncu-rep --page details > $R/details.txt 2>&1
wc -l $R/sass.csv; head -3 $R/sass.csv | cut -c1-400; cat $R/harness.txt
cd $OUT && tar czf r.tgz r && rm -rf r && ls -la r.tgz
