#!/bin/bash
# Issue 32 on the H100: the whole suite (but the soak and exhaustion tests) through NVIDIA's
# driver with its PTX forms, then again with PTX off (CLPRIM_PTX=0: the local-memory forms,
# the single passes through 64-bit atomics), and the scan's speed at 2^28 (must stay at 0.96
# of copy). Results under $OUT/s, a table last.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/s; mkdir -p $R
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
cd /tmp/b
suite() { local name=$1; shift; local t0=$(date +%s)
  env "$@" CLPRIM_DEVICE=NVIDIA timeout 270 ctest -j6 -E 'soak|exhaustion' --output-on-failure > $R/$name.txt 2>&1
  echo "$name: rc=$? $(( $(date +%s) - t0 )) s; $(grep -E 'tests passed|tests failed' $R/$name.txt)"; grep -E '^\s+[0-9]+ - ' $R/$name.txt; }
{ suite nv_ptx
  suite nv_noptx CLPRIM_PTX=0
  CLPRIM_DEVICE=NVIDIA timeout 60 tools/clprim-bench --type int32 --preset 28 --reps 11 --batch 0 --algorithms auto > $R/scan28.txt 2>&1
  CLPRIM_PTX=0 CLPRIM_DEVICE=NVIDIA timeout 60 tools/clprim-bench --type int32 --preset 28 --reps 11 --batch 0 --algorithms auto > $R/scan28_noptx.txt 2>&1
  echo "scan 2^28 (ptx / no ptx):"; grep -E '^268435456 ' $R/scan28.txt $R/scan28_noptx.txt; } 2>&1 | tee $R/table.txt
cd $OUT && tar czf s1.tgz s && rm -rf s
