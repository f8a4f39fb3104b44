#!/bin/bash
# Issue 29, segmented sort step 6: the short segments' bitonic network written out as 240
# compare-exchanges with constant indices (SORT_SEG_NET 1) against the loops (SORT_SEG_NET 0),
# 2^28 uint32 keys in 10^7 / 10^5 equal segments; ptxas -v of sort_segments from the cached PTX of
# each (spills, local memory); NVIDIA ctest of test_sort.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
for net in 1 0; do
  export CLPRIM_CACHE_DIR=/tmp/cc$net CLPRIM_BUILD_OPTIONS="-D SORT_SEG_NET=$net"
  for m in 10000000 100000; do
    $B --sort uniform --type uint32 --preset large --sort-segments $m --reps 5 --batch 0 > $R/net${net}_$m.txt 2>&1
    printf "net %s segs %-9s %s\n" $net $m "$(grep ^268435456 $R/net${net}_$m.txt | awk '{print $3, $5, $NF}')"
  done
  $B --sort uniform --type uint32 --preset large --sort-segments 10000000 --values 4 --reps 5 --batch 0 > $R/net${net}_v4.txt 2>&1
  printf "net %s segs 10^7 v4 %s\n" $net "$(grep ^268435456 $R/net${net}_v4.txt | awk '{print $3, $5, $NF}')"
  for f in /tmp/cc$net/*; do
    if grep -q sort_segments_open "$f" 2>/dev/null; then
      python3 - "$f" /tmp/p$net.ptx <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
i = b.find(b'//'); j = b.find(b'\0', i)
open(sys.argv[2], 'wb').write(b[i:j])
PY
      ptxas -arch=sm_90 -v /tmp/p$net.ptx -o /dev/null 2>&1 | grep -A1 "sort_segments'" | tail -2 > $R/ptxas_net$net.txt
      echo "net $net ld.local $(grep -c ld.local /tmp/p$net.ptx) st.local $(grep -c st.local /tmp/p$net.ptx)"; cat $R/ptxas_net$net.txt
      break
    fi
  done
done
unset CLPRIM_BUILD_OPTIONS CLPRIM_CACHE_DIR
timeout 150 ctest --test-dir /tmp/b -R "test_sort" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log
cd $OUT && tar czf r6.tgz r && rm -rf r
