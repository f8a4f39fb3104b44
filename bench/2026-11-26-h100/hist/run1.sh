#!/bin/bash
# Issue 34, histograms: 16-byte loads, 32-bit bin steps, counters in copies (work-item i adding
# to copy i % copies), whole chunks without bounds checks. NVIDIA test_histogram; uint8 / float /
# uint32 at 2^26 and 2^28, uniform and all in one bin, over copies / items / groups (knobs); CUB 13
# HistogramEven in the same lease (tools/cub_histogram.cu); the uint8 program's PTX and SASS. H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cubh tools/cub_histogram.cu > $R/nvcc.log 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt
timeout 200 ctest --test-dir /tmp/b -R "test_histogram" --output-on-failure > $R/ctest.log 2>&1; tail -3 $R/ctest.log
wait
timeout 120 /tmp/cubh --reps 11 > $R/cub.csv 2>&1; cat $R/cub.csv
B=/tmp/b/tools/clprim-bench
f() { echo "$1: $(grep ^268435456 $2 | tr -s ' ' | tr '\n' '|')" >> $R/figures.txt; }
h() { name=$1; kind=$2; keys=$3; shift 3; env "$@" timeout 90 $B --histogram $kind --keys $keys --preset large --algorithms private --reps 7 --batch 0 > $R/$name.txt 2>&1; f "$name $*" $R/$name.txt; }
h u8 uint8 uniform X=0
h u8one uint8 one X=0
for c in 1 8 32; do h u8_c$c uint8 uniform CLPRIM_HISTOGRAM_COPIES=$c CLPRIM_HISTOGRAM_COPY_COUNTERS=8192; done
for g in 6 7; do h u8_c32_g$g uint8 uniform CLPRIM_HISTOGRAM_COPIES=32 CLPRIM_HISTOGRAM_COPY_COUNTERS=8192 CLPRIM_HISTOGRAM_GROUPS_PER_CU=$g; done
for it in 2 4 16; do h u8_i$it uint8 uniform CLPRIM_HISTOGRAM_ITEMS=$it; done
h u8one_c1 uint8 one CLPRIM_HISTOGRAM_COPIES=1
h f32 float uniform X=0
h f32one float one X=0
h f32_c1 float uniform CLPRIM_HISTOGRAM_COPIES=1
h f32_i2 float uniform CLPRIM_HISTOGRAM_ITEMS=2
h u32 uint32 uniform X=0
h u32one uint32 one X=0
# the uint8 program's PTX (the disk cache holds it on NVIDIA) and its SASS
cat > /tmp/ptx.py <<'PY'
import sys, glob
for f in glob.glob(sys.argv[1] + '/*'):
    b = open(f, 'rb').read()
    if b'.entry histogram_private' in b:
        i = b.find(b'//'); j = b.find(b'\0', i)
        open(sys.argv[2], 'wb').write(b[i:j]); break
PY
CLPRIM_CACHE_DIR=/tmp/c1 timeout 60 $B --histogram uint8 --preset short --algorithms private --reps 1 > /dev/null 2>&1
python3 /tmp/ptx.py /tmp/c1 $R/u8.ptx && ptxas -arch=sm_90 -O3 $R/u8.ptx -o /tmp/u8.cubin && cuobjdump -sass /tmp/u8.cubin > $R/u8.sass
grep -c "ATOMS" $R/u8.sass; wc -l < $R/u8.sass
cat $R/figures.txt
cd $OUT && tar czf r1.tgz r && rm -rf r
