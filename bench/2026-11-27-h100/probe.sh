#!/bin/bash
# 2026-11-27, H100: why the one-pass PORTABLE scan is slow (run1: 31.8 ms at 2^28). Which polls time
# out (a printf per timeout under -DPORTABLE_SP_PROBE, 2^22 floats), and the time against the spins.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/p; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $R/cmake.log 2>&1 && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_PORTABLE_SINGLE_PASS=1
B=/tmp/b/tools/clprim-bench
for s in 64 1024 4096 65536; do
  CLPRIM_CACHE_DIR=/tmp/c$s CLPRIM_LOOKBACK_SPINS=$s timeout 60 $B --algorithms auto --type float --preset 22,24 --repro portable --reps 5 --batch 0 > $R/spins$s.txt 2>&1
  echo "spins $s: $(grep -E '^(4194304|16777216) ' $R/spins$s.txt | awk '{print $1, $3}' | tr '\n' ' ')"
done
CLPRIM_CACHE_DIR=/tmp/cprobe CLPRIM_BUILD_OPTIONS=-DPORTABLE_SP_PROBE=1 timeout 120 $B --algorithms auto --type float --preset 22 --repro portable --reps 1 --batch 0 > $R/probe.txt 2>&1
grep -c "^TO" $R/probe.txt
grep "^TO" $R/probe.txt | awk '{t=$3; s=$2; c=t; n1=int((t+15)/16); n2=int((t+1023)/1024);
  k = s<t?"A":(s<t+n1?"S1":(s<t+2*n1?"R1":(s<t+2*n1+n2?"L2":"S2"))); print k}' | sort | uniq -c
grep "^TO" $R/probe.txt | head -20
cd $OUT && tar czf p.tgz p && rm -rf p
