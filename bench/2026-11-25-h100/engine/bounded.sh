#!/bin/bash
# The engine with the single passes of compaction and segmented scans bounded
# to the registers they used before it: the family on one H100.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA CLPRIM_CACHE_DIR=$OUT/r/cache
mkdir -p $OUT/r
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $OUT/r/when.txt
B=/tmp/b/tools/clprim-bench
$B --preset large --algorithms auto --csv $OUT/r/scan.csv > $OUT/r/scan.txt 2>&1
for op in select select-flags partition partition-reversed unique rle; do
  $B --preset large --compact $op --algorithms single-pass --csv $OUT/r/c_$op.csv > $OUT/r/c_$op.txt 2>&1
done
for f in scan-flags scan-keys scan-offsets reduce-flags reduce-keys reduce-offsets; do
  $B --preset large --segmented $f --csv $OUT/r/s_$f.csv > $OUT/r/s_$f.txt 2>&1
done
for f in $OUT/r/cache/*.bin; do python3 -c "
import sys
d=open('$f','rb').read(); i=d.find(b'//'); j=d.find(b'\x00',i); sys.stdout.buffer.write(d[i:j if j>0 else len(d)])" > /tmp/x.ptx; ptxas -arch=sm_90 -v /tmp/x.ptx -o /dev/null 2>&1 | grep -B3 "Used" | grep -E "entry function|Used" | paste - - | grep -E "single_pass" | sed 's/ptxas info    : //g' >> $OUT/r/regs.txt; done
timeout 150 ctest --test-dir /tmp/b -R "test_compact|test_segment" -j2 --output-on-failure > $OUT/r/ctest.log 2>&1
tail -3 $OUT/r/ctest.log; sort -u $OUT/r/regs.txt | cut -c1-160
rm -rf $OUT/r/cache; cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-28s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | grep -E "single|auto|scan-|reduce-" | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
