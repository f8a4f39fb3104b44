#!/bin/bash
# Issue 34/32: why test_merge outlasts 230 s on NVIDIA. In the background, beside
# bench/2026-11-26-h100/portable/run.sh: test_merge with the row's 23 outputs per work-item and
# with 15, each with its own kernel cache, whose program count is logged every 10 s with the
# process's CPU time (compiling) -- then test_faults under ctest (every sixth K).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/m; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
mt() { local name=$1; shift; local t0=$(date +%s)
  (cd /tmp/b && env "$@" CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=/tmp/cm_$name timeout 420 stdbuf -oL ./tests/test_merge > $R/$name.log 2>&1; echo "rc=$? $(( $(date +%s) - t0 )) s" >> $R/$name.log) &
  local pid=$!
  while kill -0 $pid 2>/dev/null; do
    echo "$(( $(date +%s) - t0 )) s: $(find /tmp/cm_$name -type f 2>/dev/null | wc -l) cached; $(ps -o cputime= -C test_merge | tr '\n' ' ')" >> $R/$name.progress; sleep 10; done; }
mt items23 & mt items15 CLPRIM_MERGE_ITEMS=15 &
bash bench/2026-11-26-h100/portable/run.sh
wait
(cd /tmp/b && CLPRIM_DEVICE=NVIDIA CLPRIM_FAULT_STRIDE_SCALE=3 timeout 100 ctest -R test_faults --output-on-failure > $R/faults.log 2>&1; echo "faults rc $?" >> $R/faults.log)
for f in $R/*.log; do echo "== $f"; tail -4 $f; done; for f in $R/*.progress; do echo "== $f"; tail -3 $f; done
cd $OUT && tar czf m4.tgz m && rm -rf m
