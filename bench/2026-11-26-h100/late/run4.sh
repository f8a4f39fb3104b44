#!/bin/bash
# 2026-11-26 (late), H100. Issue 34: top-k, SAMPLE_FILTER without a host wait (the gate and the
# filled room, the radix selection queued behind and gated) against RADIX_SELECT, 2^28 floats,
# k = 16/100/1000, uniform bit patterns and [0, 1), the timeline of one call; then NVIDIA's
# test_top_k and test_repro (the 8-byte rows' RUN_TO_RUN pass bounded to 96 registers).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r4; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
gcc -O2 -shared -fPIC tools/cl_trace.c -o /tmp/cl_trace.so -ldl -lOpenCL || exit 1
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_r4
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
for keys in uniform unit; do
  timeout 120 $B --top-k 16,100,1000 --type float --keys $keys --preset large --algorithms radix-select,sample-filter --reps 11 --batch 0 > $R/topk_$keys.txt 2>&1
  echo "== top-k $keys"; grep -E "^268435456" $R/topk_$keys.txt | tee -a $R/figures.txt
done
CL_TRACE_FILE=$R/trace_sf.txt LD_PRELOAD=/tmp/cl_trace.so timeout 60 $B --top-k 100 --type float --keys uniform --preset large --algorithms sample-filter --reps 1 --batch 0 > /dev/null 2>&1
echo "== trace sample-filter"; python3 bench/2026-11-26-h100/family/tail.py $R/trace_sf.txt 30 | tee -a $R/figures.txt
(cd /tmp/b && timeout 330 ctest -R "test_top_k|test_repro" --output-on-failure > $R/tests.txt 2>&1; echo "tests rc $?" >> $R/tests.txt)
tail -6 $R/tests.txt
cd $OUT && tar czf r4.tgz r4 && rm -rf r4
