#!/bin/bash
# wip/hist-copies on the H100 (run from a copy of the branch in hist-src/):
# loads per work-item 1, 2 and 8 (the row's 8 took 1.5 ms for uint8 in run1),
# uniform samples and all in one bin; test_histogram at 2.
cd hist-src && ln -sf ../.gpu .gpu && . .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/h2; mkdir -p $R
cmake -S . -B /tmp/bh -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/bh -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/bh/tools/clprim-bench
for k in uint8 float uint32; do for it in 1 2 8; do for keys in uniform one; do
  CLPRIM_HISTOGRAM_ITEMS=$it timeout 40 $B --histogram $k --keys $keys --preset large --algorithms private --reps 7 --batch 0 > $R/${k}_${keys}_$it.txt 2>&1
  echo "$k $keys items $it: $(grep ^268435456 $R/${k}_${keys}_$it.txt | tr -s ' ')"
done; done; done | tee $R/table.txt
(CLPRIM_HISTOGRAM_ITEMS=2 timeout 150 /tmp/bh/tests/test_histogram > $R/test_histogram_i2.log 2>&1; echo "test_histogram items 2 rc $?") | tee -a $R/table.txt
cd $OUT && tar czf h2.tgz h2 && rm -rf h2
