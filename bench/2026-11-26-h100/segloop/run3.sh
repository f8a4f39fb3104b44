#!/bin/bash
# Issue 28, third round: uint8 flags read as one word per chunk
# (SEG_FLAG_WORDS=1, the default now) against uchar4 vectors (=0); the PTX of
# the segmented kernels kept for reading (ptx/, one cache per form).
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R/ptx
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
B=/tmp/b/tools/clprim-bench
for f in scan-flags reduce-flags scan-keys reduce-keys scan-offsets; do
  CLPRIM_CACHE_DIR=/tmp/c_$f $B --preset large --segmented $f --csv $R/s_$f.csv > $R/s_$f.txt 2>&1
done
for f in scan-flags reduce-flags; do
  CLPRIM_BUILD_OPTIONS="-D SEG_FLAG_WORDS=0" $B --preset large --segmented $f --csv $R/v_$f.csv > $R/v_$f.txt 2>&1
done
for f in scan-flags scan-keys reduce-keys; do
  for b in /tmp/c_$f/*.bin; do python3 -c "
import sys
d=open('$b','rb').read(); i=d.find(b'//'); j=d.find(b'\x00',i); sys.stdout.buffer.write(d[i:j if j>0 else len(d)])" > /tmp/x.ptx
    if grep -q "seg_loop" /tmp/x.ptx; then cp /tmp/x.ptx $R/ptx/$f.ptx; ptxas -arch=sm_90 -v /tmp/x.ptx -o /dev/null 2>&1 | grep -A2 "seg_loop" | grep Used | sed "s/^/$f /" >> $R/regs.txt; fi
  done
done
timeout 150 ctest --test-dir /tmp/b -R "test_segment" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log; cut -c1-150 $R/regs.txt
cd $OUT && tar czf r.tgz r && rm -rf r
for f in $(tar tzf r.tgz | grep txt$ | sort); do printf "%-26s " $(basename $f); tar xzf r.tgz -O $f | grep 268435456 | awk '{print $(NF-3), $(NF-2), $(NF-1)}' | tr '\n' ' '; echo; done
