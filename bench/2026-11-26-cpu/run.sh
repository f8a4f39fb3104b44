#!/bin/bash
# Issue 32, the CPU path: scan, reduce, select and sort at 2^20 and 2^24 on both CPU runtimes
# of the 2-core development machine (the CI class), every algorithm where it finishes in time,
# against the runtime's own copy and the host's sequential loop (scan, reduce) or a
# single-threaded LSB radix sort in C (sort). Build: the tree's `build` (Release).
# Usage: bench/2026-11-26-cpu/run.sh OUTDIR
set -u
out=${1:-/tmp/cpubench}; mkdir -p "$out"
B=./build/tools/clprim-bench
mkdir -p /tmp/pv /tmp/iv
cp /etc/OpenCL/vendors/pocl.icd /tmp/pv/; cp /etc/OpenCL/vendors/clprim-intel-cpu.icd /tmp/iv/
(date -u; nproc; lscpu | grep "Model name") > "$out/when.txt"
for rt in "pv Portable pocl" "iv Intel intel"; do set -- $rt
  export OCL_ICD_VENDORS=/tmp/$1 CLPRIM_DEVICE=$2
  $B --preset 20,24 --type int32 --reps 7 --batch 0 --csv "$out/scan_$3.csv" > "$out/scan_$3.txt" 2>&1
  $B --reduce --preset 20,24 --type int32 --reps 7 --batch 0 --csv "$out/reduce_$3.csv" > "$out/reduce_$3.txt" 2>&1
  $B --compact select --preset 20,24 --reps 7 --batch 0 --csv "$out/select_$3.csv" > "$out/select_$3.txt" 2>&1
  $B --sort uniform --type uint32 --preset 20 --reps 3 --batch 0 --csv "$out/sort20_$3.csv" > "$out/sort20_$3.txt" 2>&1
  $B --sort uniform --type uint32 --preset 24 --reps 3 --batch 0 --algorithms chunked,split-lsb --csv "$out/sort24_$3.csv" > "$out/sort24_$3.txt" 2>&1
done
for f in "$out"/*.txt; do echo "== $f"; grep -E "^(1048576|16777216) " "$f"; done
