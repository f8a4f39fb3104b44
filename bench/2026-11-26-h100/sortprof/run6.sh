#!/bin/bash
# Issue 29 step 6: NVIDIA test_sort's segmented tests (the first eleven passed in run5.sh with the
# kind compiled in; the segmented sort's program keeps the kind an argument). H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 --target clprim_test_sort >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
start=$(date +%s)
TU_FILTER='test_segmented*' timeout 400 stdbuf -oL -eL /tmp/b/tests/test_sort > $R/test_sort_segmented.log 2>&1; echo "rc $? in $(( $(date +%s) - start )) s"
grep -E "^\[ *(OK|FAILED|RUN|PASSED|  FAILED) " $R/test_sort_segmented.log | tail -10
cd $OUT && tar czf r6.tgz r && rm -rf r
