#!/bin/bash
# Issue 32 on the H100 host's 16 CPU cores (Xeon, AVX-512), PoCL 5: test_merge on NVIDIA with
# and without PTX and test_faults (every sixth K) first, each alone in its log; then the CPU
# path's figures as bench/2026-11-26-cpu/run.sh takes them on the 2-core machine: scan,
# reduce, select and sort at 2^20 and 2^24 against PoCL's copy, the sequential C loop and a
# single-threaded LSB radix sort. Intel's CPU runtime cannot come here (no network; 800 MB).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/c; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
(date -u; nproc; lscpu | grep "Model name") > $R/when.txt
cd /tmp/b
t() { local name=$1 test=$2; shift 2; local t0=$(date +%s)
  env "$@" timeout 230 stdbuf -oL ./tests/$test > $R/$name.log 2>&1; echo "$name: rc=$? $(( $(date +%s) - t0 )) s; $(grep -E 'PASSED|FAILED' $R/$name.log | tr '\n' ' ')"; }
{ t merge_ptx test_merge CLPRIM_DEVICE=NVIDIA &
  t merge_noptx test_merge CLPRIM_DEVICE=NVIDIA CLPRIM_PTX=0 &
  t faults_ptx test_faults CLPRIM_DEVICE=NVIDIA CLPRIM_FAULT_STRIDE_SCALE=3 &
  wait; } 2>&1 | tee $R/table.txt
B=tools/clprim-bench; export CLPRIM_DEVICE=Portable CLPRIM_CACHE_DIR=/tmp/cpocl
$B --preset 20,24 --type int32 --reps 7 --batch 0 --csv $R/scan.csv > $R/scan.txt 2>&1
$B --reduce --preset 20,24 --type int32 --reps 7 --batch 0 --csv $R/reduce.csv > $R/reduce.txt 2>&1
$B --compact select --preset 20,24 --reps 7 --batch 0 --csv $R/select.csv > $R/select.txt 2>&1
$B --sort uniform --type uint32 --preset 20,24 --reps 3 --batch 0 --algorithms chunked --csv $R/sort.csv > $R/sort.txt 2>&1
for f in $R/scan.txt $R/reduce.txt $R/select.txt $R/sort.txt; do echo "== $f"; grep -E "^#|^n |^(1048576|16777216) " $f | grep -v "^# *$"; done | tee -a $R/table.txt
cd $OUT && tar czf c3.tgz c && rm -rf c
