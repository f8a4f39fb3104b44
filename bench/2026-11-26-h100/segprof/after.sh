#!/bin/bash
# The reduce's "head after the tile" loaded by work-item 0 alone (sass.sh
# found the warp waiting for it at a uniform-register move); H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/h tools/nv_ptx_harness.cu -lcuda || exit 1
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for f in reduce-keys reduce-flags; do
  $B --preset large --segmented $f --csv $R/s_$f.csv > $R/s_$f.txt 2>&1
done
CLPRIM_CACHE_DIR=/tmp/c1 $B --preset short --segmented reduce-keys > /dev/null 2>&1
L=$(for f in /tmp/c1/*.bin; do grep -q ".entry seg_loop" $f && echo $f; done | head -1)
KERNEL=seg_loop /tmp/h segreduce $L 4 396 > $R/harness.txt 2>&1
timeout 150 ctest --test-dir /tmp/b -R "test_segment" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log; cat $R/harness.txt
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
