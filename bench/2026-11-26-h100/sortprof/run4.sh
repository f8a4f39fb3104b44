#!/bin/bash
# Issue 29 step 4: the NVIDIA rows with the key kind compiled in and values staged through local
# memory (read in tile order, placed beside their keys, written like them). NVIDIA test_sort;
# whole sorts (keys at 24 / 28 per work-item; pairs staged or gathered at 16 / 20; float; uint64)
# with CUB 13 in the same lease; Nsight Compute's SASS page of a keys pass. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cub tools/cub_sort.cu > $R/nvcc_cub.log 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/h tools/nv_ptx_harness.cu -lcuda || exit 1
export CLPRIM_DEVICE=NVIDIA
timeout 280 ctest --test-dir /tmp/b -R "test_sort" --output-on-failure > $R/ctest.log 2>&1
tail -2 $R/ctest.log
wait
B=/tmp/b/tools/clprim-bench
/tmp/cub --n 2^28 --reps 7 --segments 10000000 > $R/cub.csv 2>&1
cat $R/cub.csv
run() { name=$1; shift; env "$@" $B --preset large --algorithms onesweep --reps 5 $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep ^268435456 $R/$name.txt)"; }
ARGS="--sort uniform --type uint32" run keys24 CLPRIM_SORT_ITEMS=24
ARGS="--sort uniform --type uint32" run keys28 CLPRIM_SORT_ITEMS=28
ARGS="--sort uniform --type uint32 --values 4" run pairs16_staged CLPRIM_SORT_ITEMS=16
ARGS="--sort uniform --type uint32 --values 4" run pairs20_staged CLPRIM_SORT_ITEMS=20
ARGS="--sort uniform --type uint32 --values 4" run pairs16_gathered CLPRIM_SORT_ITEMS=16 CLPRIM_SORT_STAGE_VALUES=0
ARGS="--sort uniform --type float" run float24 CLPRIM_SORT_ITEMS=24
ARGS="--sort uniform --type uint64" run u64 CLPRIM_X=0
cat > /tmp/ptx.py <<'PY'
import sys, glob
for f in glob.glob(sys.argv[1] + '/*'):
    b = open(f, 'rb').read()
    if b'.entry sort_onesweep' in b:
        i = b.find(b'//'); j = b.find(b'\0', i)
        open(sys.argv[2], 'wb').write(b[i:j]); break
PY
CLPRIM_CACHE_DIR=/tmp/c1 $B --sort uniform --type uint32 --preset short --algorithms onesweep --reps 1 > /dev/null 2>&1
python3 /tmp/ptx.py /tmp/c1 /tmp/p1.ptx
PROFILE=1 timeout 120 ncu --set full --import-source no -k regex:sort_onesweep --launch-skip 2 --launch-count 1 -o /tmp/ours /tmp/h sort /tmp/p1.ptx 4 6144 > $R/ncu_ours.log 2>&1
ncu -i /tmp/ours.ncu-rep --page details > $R/details_ours.txt 2>&1
ncu -i /tmp/ours.ncu-rep --page source --csv --print-source sass > $R/sass_ours.csv 2>/dev/null
grep -E "^\s+(Duration|Compute \(SM\) Throughput|Issue Slots Busy|Registers Per)" $R/details_ours.txt
cd $OUT && tar czf r4.tgz r && rm -rf r
