#!/bin/bash
# 2026-11-26 (late), H100. Issue 34: merge with each partition work-group's searches sharing one interval
# (MERGE_SHARED_SEARCH=1, now) against each search its own (=0, before), keys and pairs, with the
# timeline of one call each; CUB 13 DeviceMerge in the same lease. Issue 33: RUN_TO_RUN (two-level
# chain) against NONE, float and double, 2^24 and 2^28; PORTABLE double scan/reduce at work-groups
# of 64, 128 and 256 (CLPRIM_PORTABLE_WG_SIZE). Then NVIDIA's test_merge and test_repro.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r1; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cubm tools/cub_merge.cu > $R/nvcc_cubm.log 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
gcc -O2 -shared -fPIC tools/cl_trace.c -o /tmp/cl_trace.so -ldl -lOpenCL || exit 1
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
f() { echo "$1: $(grep -E "^${3:-268435456} " $2 | tr -s ' ' | tr '\n' '|')" | tee -a $R/figures.txt; }
wait
for s in 1 0; do
  export CLPRIM_BUILD_OPTIONS=-DMERGE_SHARED_SEARCH=$s CLPRIM_CACHE_DIR=/tmp/cache_s$s
  timeout 60 $B --merge keys --type int32 --preset large --algorithms tiled --reps 11 --batch 0 > $R/merge_keys_s$s.txt 2>&1; f "merge keys shared=$s" $R/merge_keys_s$s.txt
  timeout 60 $B --merge pairs --values 4 --type int32 --preset large --algorithms tiled --reps 5 --batch 0 > $R/merge_pairs_s$s.txt 2>&1; f "merge pairs shared=$s" $R/merge_pairs_s$s.txt
  CL_TRACE_FILE=$R/trace_merge_s$s.txt LD_PRELOAD=/tmp/cl_trace.so timeout 60 $B --merge keys --type int32 --preset large --algorithms tiled --reps 3 --batch 0 > /dev/null 2>&1
  python3 bench/2026-11-26-h100/family/tail.py $R/trace_merge_s$s.txt 4 | tee -a $R/figures.txt
done
unset CLPRIM_BUILD_OPTIONS; export CLPRIM_CACHE_DIR=/tmp/cache_main
timeout 60 /tmp/cubm --n 2^28 --reps 11 > $R/cub_merge.csv 2>&1; tail -3 $R/cub_merge.csv | tee -a $R/figures.txt
timeout 60 $B --merge keys --type int32 --preset large --algorithms tiled --reps 11 --batch 0 > $R/merge_keys_again.txt 2>&1; f "merge keys shared=1 again" $R/merge_keys_again.txt
for t in double float; do for r in none run-to-run; do
  timeout 40 $B --type $t --algorithms decoupled-lookback --preset 24,28 --repro $r --reps 11 --batch 0 > $R/scan_${t}_${r}.txt 2>&1
  f "scan $t $r 2^24" $R/scan_${t}_${r}.txt 16777216; f "scan $t $r 2^28" $R/scan_${t}_${r}.txt
done; done
for w in 64 128 256; do for m in scan reduce; do
  CLPRIM_PORTABLE_WG_SIZE=$w timeout 60 $B $([ $m = reduce ] && echo --reduce) --type double --algorithms auto --preset 24,28 --repro portable --reps 11 --batch 0 > $R/port_${m}_double_wg$w.txt 2>&1
  f "portable $m double wg$w 2^24" $R/port_${m}_double_wg$w.txt 16777216; f "portable $m double wg$w 2^28" $R/port_${m}_double_wg$w.txt
done; done
for m in scan reduce; do
  timeout 60 $B $([ $m = reduce ] && echo --reduce) --type double --algorithms auto --preset 24,28 --repro none --reps 11 --batch 0 > $R/none_${m}_double.txt 2>&1
  f "none $m double 2^24" $R/none_${m}_double.txt 16777216; f "none $m double 2^28" $R/none_${m}_double.txt
done
(cd /tmp/b && timeout 150 ctest -R "test_merge|test_repro" --output-on-failure > $R/tests.txt 2>&1; echo "tests rc $?" >> $R/tests.txt)
tail -4 $R/tests.txt
cd $OUT && tar czf r1.tgz r1 && rm -rf r1
