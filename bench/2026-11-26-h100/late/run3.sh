#!/bin/bash
# 2026-11-26 (late), H100. Issue 34: top-k, RADIX_SELECT against SAMPLE_FILTER (wip/topk-filter:
# a sampled threshold, one filtering read, the candidates sorted), 2^28 floats, k = 16/100/1000,
# uniform bit patterns and [0, 1), with the timeline of one call each. Issue 33: the 8-byte row's
# RUN_TO_RUN pass bounded to 96 registers (repro_max_regs), double and float, NONE beside, twice.
# Then NVIDIA's test_top_k and test_repro.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r3; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
gcc -O2 -shared -fPIC tools/cl_trace.c -o /tmp/cl_trace.so -ldl -lOpenCL || exit 1
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cache_r3
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
for keys in uniform unit; do
  timeout 120 $B --top-k 16,100,1000 --type float --keys $keys --preset large --algorithms radix-select,sample-filter --reps 11 --batch 0 > $R/topk_$keys.txt 2>&1
  echo "== top-k $keys"; grep -E "^268435456" $R/topk_$keys.txt | tee -a $R/figures.txt
done
for a in sample-filter radix-select; do
  CL_TRACE_FILE=$R/trace_$a.txt LD_PRELOAD=/tmp/cl_trace.so timeout 60 $B --top-k 100 --type float --keys uniform --preset large --algorithms $a --reps 2 --batch 0 > /dev/null 2>&1
  echo "== trace $a"; python3 bench/2026-11-26-h100/family/tail.py $R/trace_$a.txt 14 | tee -a $R/figures.txt
done
f() { echo "$1: $(grep -E "^(16777216|268435456) " $2 | awk '{printf "%s %s us %s | ", $1, $3, $7}')" | tee -a $R/figures.txt; }
for round in 1 2; do for t in double float; do for r in none run-to-run; do
  timeout 40 $B --type $t --algorithms decoupled-lookback --preset 24,28 --repro $r --reps 11 --batch 0 > $R/scan_${t}_${r}_$round.txt 2>&1; f "round $round $t $r" $R/scan_${t}_${r}_$round.txt
done; done; done
(cd /tmp/b && timeout 200 ctest -R "test_top_k|test_repro" --output-on-failure > $R/tests.txt 2>&1; echo "tests rc $?" >> $R/tests.txt)
tail -5 $R/tests.txt
cd $OUT && tar czf r3.tgz r3 && rm -rf r3
