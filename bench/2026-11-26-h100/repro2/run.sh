#!/bin/bash
# Issue 33 on the H100, after the ordered look-back replaced the anchors:
# RUN_TO_RUN against NONE (float and double scans at 2^24 and 2^28, the single
# pass), 1,000 repeats of a 2^24 float scan bit for bit, PORTABLE for
# reference; NVIDIA test_repro, test_scan, test_segment, test_lookback.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
g() { echo "$1:"; grep -E "^(16777216|268435456) " $2 | tr -s ' '; }
for t in float double; do for r in none run-to-run; do
  timeout 60 $B --type $t --algorithms decoupled-lookback --preset 24,28 --repro $r --reps 11 --batch 0 > $R/scan_${t}_$r.txt 2>&1
done; done
for t in float double; do for r in none run-to-run; do
  timeout 60 $B --type $t --algorithms decoupled-lookback --preset 24,28 --repro $r --reps 11 --batch 0 > $R/scan_${t}_${r}_b.txt 2>&1
done; done
timeout 60 $B --type float --algorithms auto --preset 24,28 --repro portable --reps 5 --batch 0 > $R/scan_float_portable.txt 2>&1
timeout 150 $B --type float --algorithms auto,decoupled-lookback --repro run-to-run --repeat-check 1000 --preset short > $R/repeat_rtr.txt 2>&1; echo "repeat-check rc $?" >> $R/tests.txt
timeout 60 $B --type double --algorithms decoupled-lookback --repro run-to-run --repeat-check 200 --preset 24 > $R/repeat_rtr_double.txt 2>&1; echo "repeat-check double rc $?" >> $R/tests.txt
(cd /tmp/b && for t in test_repro test_lookback test_scan test_segment; do timeout 120 stdbuf -oL ./tests/$t > $R/$t.log 2>&1; echo "$t rc $?" >> $R/tests.txt; done)
cat $R/tests.txt
for f in $R/scan_*.txt; do g $(basename $f .txt) $f; done
tail -4 $R/repeat_rtr.txt $R/repeat_rtr_double.txt
cd $OUT && tar czf r2.tgz r && rm -rf r
