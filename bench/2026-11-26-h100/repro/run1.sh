#!/bin/bash
# Issue 33 on the H100: RUN_TO_RUN and PORTABLE against NONE (scan float/double at 2^24..2^28,
# reduce), anchor strides, 1,000 repeats of a 2^24 float scan bit for bit; NVIDIA test_repro,
# test_scan, test_lookback, test_compact (the look-back changed under every single pass).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
g() { echo "$1:"; grep -E "^(16777216|268435456) " $2 | tr -s ' '; } 
for t in float double; do for r in none run-to-run portable; do
  timeout 60 $B --type $t --algorithms auto,decoupled-lookback --preset large --repro $r --reps 5 --batch 0 > $R/scan_${t}_$r.txt 2>&1
  timeout 60 $B --type $t --algorithms auto --preset short --repro $r --reps 5 --batch 0 > $R/scan24_${t}_$r.txt 2>&1
done; done
for a in 8 16; do CLPRIM_REPRO_ANCHOR=$a timeout 60 $B --type float --algorithms decoupled-lookback --preset large --repro run-to-run --reps 5 --batch 0 > $R/scan_anchor$a.txt 2>&1; done
for r in none run-to-run portable; do timeout 60 $B --type float --reduce --algorithms auto --preset large --repro $r --reps 5 --batch 0 > $R/reduce_$r.txt 2>&1; done
timeout 200 $B --type float --algorithms auto,decoupled-lookback --repro run-to-run --repeat-check 1000 --preset short > $R/repeat_rtr.txt 2>&1; echo "repeat-check rc $?" >> $R/tests.txt
timeout 100 $B --type float --algorithms decoupled-lookback --repro none --repeat-check 50 --preset short > $R/repeat_none.txt 2>&1
(cd /tmp/b && for t in test_repro test_scan test_lookback test_compact; do timeout 100 stdbuf -oL ./tests/$t > $R/$t.log 2>&1; echo "$t rc $?" >> $R/tests.txt; done)
cat $R/tests.txt
for f in $R/scan_*.txt $R/reduce_*.txt; do g $(basename $f .txt) $f; done
tail -3 $R/repeat_rtr.txt $R/repeat_none.txt
cd $OUT && tar czf r1.tgz r && rm -rf r
