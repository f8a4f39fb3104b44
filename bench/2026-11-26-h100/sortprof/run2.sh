#!/bin/bash
# Issue 29 step 2: the ranking loop unrolled (keys and ranks in registers, no private-memory
# loads), the key's order without branches, bit tests by constant masks. Per shape (work-group
# size x keys per work-item x register bound): ptxas registers and spills, one pass through
# tools/nv_ptx_harness.cu, and instructions executed per key (Nsight Compute); the whole sort
# of the two best with CUB 13 in the same lease; Nsight Compute on CUB's onesweep pass (the
# right launch this time); NVIDIA test_sort. H100.
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
for shape in 256:24:64 256:20:64 256:16:64 256:20:72 256:20:80 512:12:64 512:16:64 512:10:64 128:24:64 128:32:64; do
  IFS=: read w i r <<< "$shape"
  c=/tmp/cs_${w}_${i}_$r
  CLPRIM_CACHE_DIR=$c CLPRIM_SORT_WG_SIZE=$w CLPRIM_SORT_ITEMS=$i CLPRIM_SORT_MAX_REGS=$r $B --sort uniform --type uint32 --preset short --algorithms onesweep --reps 1 > $c.bench 2>&1
  ptx $c $c.ptx
  ptxas -arch=sm_90 -v $c.ptx -o /dev/null 2>&1 | grep -A1 "sort_onesweep'" | tail -1 | sed 's/ptxas info *: //' > $c.regs
  t=$(/tmp/h sort $c.ptx 4 $((w * i)) 2>&1 | grep -E 'registers|pass' | tr '\n' ' ')
  ins=$(PROFILE=1 ncu --metrics smsp__inst_executed.sum -k regex:sort_onesweep --launch-skip 1 --launch-count 1 /tmp/h sort $c.ptx 4 $((w * i)) 2>&1 | grep inst_executed | awk '{print $NF}' | tr -d ,)
  echo "wg $w items $i regs $r | $(cat $c.regs) | $t | warp-instr per 32 keys $(python3 -c "print(round(${ins:-0}/2**23,1))")" >> $R/shapes.txt
done
/tmp/cub --n 2^28 --reps 7 --segments 10000000 > $R/cub.csv 2>&1
for shape in 256:24:64 256:20:64 512:12:64; do
  IFS=: read w i r <<< "$shape"
  CLPRIM_SORT_WG_SIZE=$w CLPRIM_SORT_ITEMS=$i CLPRIM_SORT_MAX_REGS=$r $B --sort uniform --type uint32 --preset large --algorithms onesweep --reps 5 > $R/sort_${w}_${i}_$r.txt 2>&1
  echo "whole sort wg $w items $i regs $r: $(grep ^268435456 $R/sort_${w}_${i}_$r.txt)" >> $R/whole.txt
done
$B --sort uniform --type uint32 --preset large --algorithms onesweep --values 4 --reps 5 > $R/pairs.txt 2>&1
timeout 200 ncu --set full --import-source no -k regex:DeviceRadixSortOnesweepKernel --launch-skip 2 --launch-count 1 -o /tmp/cubr /tmp/cub --n 2^28 --reps 1 --segments '' > $R/ncu_cub.log 2>&1
ncu -i /tmp/cubr.ncu-rep --page details > $R/details_cubr.txt 2>&1
ncu -i /tmp/cubr.ncu-rep --page source --csv --print-source sass > $R/sass_cubr.csv 2>/dev/null
CLPRIM_CACHE_DIR=/tmp/cs_256_20_64 PROFILE=1 timeout 150 ncu --set full --import-source no -k regex:sort_onesweep --launch-skip 2 --launch-count 1 -o /tmp/ours /tmp/h sort /tmp/cs_256_20_64.ptx 4 5120 > $R/ncu_ours.log 2>&1
ncu -i /tmp/ours.ncu-rep --page details > $R/details_ours.txt 2>&1
ncu -i /tmp/ours.ncu-rep --page source --csv --print-source sass > $R/sass_ours.csv 2>/dev/null
timeout 170 ctest --test-dir /tmp/b -R "test_sort" --output-on-failure > $R/ctest.log 2>&1
cat $R/shapes.txt; cat $R/cub.csv; cat $R/whole.txt; grep ^268435456 $R/pairs.txt
for x in ours cubr; do echo "== $x"; grep -E "^\s+(Duration|DRAM Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|Grid Size|Block Size)" $R/details_$x.txt | head -10; done
tail -3 $R/ctest.log
cd $OUT && tar czf r2.tgz r && rm -rf r
