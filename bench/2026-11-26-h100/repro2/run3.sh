#!/bin/bash
# The ordered look-back's cost, by parts (H100): the default (unrolled fold),
# the fold as a loop (LB_FOLD_LOOP), NONE's tree walk under the ordered
# program (LB_EXP_TREE: not reproducible; the canonical totals' cost alone),
# each against NONE; ptxas -v of the single pass (spills under its bound).
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
run() { # name, options, repro
  for t in float double; do
    CLPRIM_CACHE_DIR=/tmp/c_$1 CLPRIM_BUILD_OPTIONS="$2" timeout 60 $B --type $t --algorithms decoupled-lookback \
      --preset 24,28 --repro $3 --reps 11 --batch 0 > $R/${1}_$t.txt 2>&1
  done; }
run none "" none
run ordered "" run-to-run
run loop "-DLB_FOLD_LOOP=1" run-to-run
run tree "-DLB_EXP_TREE=1" run-to-run
run none2 "" none
run ordered2 "" run-to-run
timeout 60 $B --type double --algorithms decoupled-lookback --repro run-to-run --repeat-check 100 --preset 24 > $R/repeat_double.txt 2>&1; echo "repeat double rc $?" >> $R/tests.txt
timeout 60 $B --type float --algorithms decoupled-lookback --repro run-to-run --repeat-check 200 --preset 24 > $R/repeat_float.txt 2>&1; echo "repeat float rc $?" >> $R/tests.txt
(cd /tmp/b && timeout 150 ./tests/test_repro > $R/test_repro.log 2>&1; echo "test_repro rc $?" >> $R/tests.txt)
# PTX of the ordered programs: registers and spills
for c in /tmp/c_ordered/*; do python3 - "$c" > /tmp/p.ptx <<'PY'
import sys
d=open(sys.argv[1],'rb').read(); i=d.find(b'//'); j=d.find(b'\0', i)
sys.stdout.write(d[i:j if j>0 else len(d)].decode('latin1'))
PY
  grep -q "scan_single_pass" /tmp/p.ptx && ptxas -arch=sm_90 -v /tmp/p.ptx -o /tmp/p.cubin 2>&1 | grep -A2 "scan_single_pass" | grep -E "registers|spill" >> $R/ptxas.txt
done
cat $R/tests.txt; cat $R/ptxas.txt | sort | uniq | head
for f in $R/*_float.txt $R/*_double.txt; do echo "$(basename $f .txt): $(grep -E '^(16777216|268435456) ' $f | awk '{printf "%s %s us %s | ", $1, $3, $7}')"; done
cd $OUT && tar czf r3.tgz r && rm -rf r
