#!/bin/bash
# Issue 29, where a one-sweep pass spends its time now (ballot ranking, 64-register bound):
# NVIDIA test_sort (after a208a6e); the whole sort with CUB 13 in the same lease; one pass
# through tools/nv_ptx_harness.cu with parts switched off (SORT_ABLATE 1: no look-back,
# 2: no global write; results then wrong, times only); a tile-shape sweep (work-group size x
# keys per work-item, CUB's is 384 x 20); Nsight Compute on one pass of ours and of CUB's
# onesweep kernel (details, SASS source page, per-opcode counts). H100.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/r; mkdir -p $R
(nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cub tools/cub_sort.cu > $R/nvcc_cub.log 2>&1) &
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/h tools/nv_ptx_harness.cu -lcuda || exit 1
wait
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
ptx() { python3 - "$1" "$2" <<'PY'
import sys, glob
for f in glob.glob(sys.argv[1] + '/*'):
    b = open(f, 'rb').read()
    if b'.entry sort_onesweep' in b:
        i = b.find(b'//'); j = b.find(b'\0', i)
        open(sys.argv[2], 'wb').write(b[i:j]); break
PY
}
/tmp/cub --n 2^28 --reps 7 --segments 10000000 > $R/cub.csv 2>&1
CLPRIM_CACHE_DIR=/tmp/c0 $B --sort uniform --type uint32 --preset large --algorithms onesweep --reps 5 > $R/base.txt 2>&1
ptx /tmp/c0 /tmp/p0.ptx
ptxas -arch=sm_90 -v /tmp/p0.ptx -o /tmp/p0.cubin > $R/ptxas0.txt 2>&1; cuobjdump -sass /tmp/p0.cubin > $R/sass0.txt 2>&1
for a in 0 1 2 3; do
  CLPRIM_CACHE_DIR=/tmp/ca$a CLPRIM_BUILD_OPTIONS="-D SORT_ABLATE=$a" $B --sort uniform --type uint32 --preset short --algorithms onesweep --reps 1 > /dev/null 2>&1
  ptx /tmp/ca$a /tmp/pa$a.ptx
  echo "ablate $a: $(/tmp/h sort /tmp/pa$a.ptx 4 6144 2>&1 | grep 'pass')" >> $R/ablate.txt
done
for shape in 256:24 384:16 384:20 384:24 512:12 512:16 256:20 256:32; do
  w=${shape%:*}; i=${shape#*:}
  for r in 0 64 72; do
    c=/tmp/cs_${w}_${i}_$r
    CLPRIM_CACHE_DIR=$c CLPRIM_SORT_WG_SIZE=$w CLPRIM_SORT_ITEMS=$i CLPRIM_SORT_MAX_REGS=$r $B --sort uniform --type uint32 --preset short --algorithms onesweep --reps 1 > /dev/null 2>&1
    ptx $c $c.ptx
    echo "wg $w items $i regs $r: $(/tmp/h sort $c.ptx 4 $((w * i)) 2>&1 | grep -E 'registers|pass' | tr '\n' ' ')" >> $R/shapes.txt
  done
done
PROFILE=1 timeout 150 ncu --set full --import-source no -k regex:sort_onesweep --launch-skip 2 --launch-count 1 -o /tmp/ours /tmp/h sort /tmp/p0.ptx 4 6144 > $R/ncu_ours.log 2>&1
timeout 200 ncu --set full --import-source no -k regex:Onesweep --launch-skip 5 --launch-count 1 -o /tmp/cubr /tmp/cub --n 2^28 --reps 1 --segments 1 > $R/ncu_cub.log 2>&1
for x in ours cubr; do
  ncu -i /tmp/$x.ncu-rep --page details > $R/details_$x.txt 2>&1
  ncu -i /tmp/$x.ncu-rep --page source --csv --print-source sass > $R/sass_$x.csv 2>/dev/null
  ncu -i /tmp/$x.ncu-rep --page raw --csv --print-metric-instances values > $R/raw_$x.csv 2>/dev/null
done
timeout 170 ctest --test-dir /tmp/b -R "test_sort" --output-on-failure > $R/ctest.log 2>&1
echo "== cub"; cat $R/cub.csv; echo "== base"; grep -E "^(67108864|268435456)" $R/base.txt
cat $R/ablate.txt $R/shapes.txt; grep -E "registers|spill" $R/ptxas0.txt | head -4
for x in ours cubr; do echo "== $x"; grep -E "^\s+(Duration|DRAM Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Block Limit (Registers|Shared))" $R/details_$x.txt | head -10; done
tail -3 $R/ctest.log
cd $OUT && tar czf r.tgz r && rm -rf r
