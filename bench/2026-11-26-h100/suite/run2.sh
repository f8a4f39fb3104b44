#!/bin/bash
# Issue 32 on the H100 host, second part: the three tests run1's 270 s left unfinished on
# NVIDIA (with PTX, and with CLPRIM_PTX=0), and the whole suite on PoCL 5 (the host's 16
# cores), at once. Results under $OUT/t, a table last.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/t; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
cd /tmp/b
suite() { local name=$1 j=$2 re=$3; shift 3; local t0=$(date +%s)
  env "$@" timeout 480 ctest -j$j -R "$re" -E 'soak|exhaustion' --output-on-failure > $R/$name.txt 2>&1
  echo "$name: rc=$? $(( $(date +%s) - t0 )) s; $(grep -E 'tests passed|tests failed' $R/$name.txt)"; }
clinfo -l > $R/platforms.txt 2>&1
{ suite nv_ptx 3 'test_(faults|merge|sort)$' CLPRIM_DEVICE=NVIDIA &
  suite nv_noptx 2 'test_(faults|merge)$' CLPRIM_DEVICE=NVIDIA CLPRIM_PTX=0 &
  suite pocl5 10 '.' CLPRIM_DEVICE=Portable CLPRIM_CACHE_DIR=/tmp/cpocl &
  wait; } 2>&1 | tee $R/table.txt
grep -hE '^\s*[0-9]+/[0-9]+ Test' $R/nv_*.txt | grep -v Passed; grep -E 'Failed|Timeout|Not Run' $R/pocl5.txt | head
cd $OUT && tar czf t2.tgz t && rm -rf t
