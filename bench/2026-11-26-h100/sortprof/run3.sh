#!/bin/bash
# Issue 29 step 3: digit peers by one PTX vote per bit (clprim_ptx_agree), a full tile's copy of
# the pass without bounds tests, and the key kind compiled into the program or not
# (CLPRIM_SORT_KIND_IN_PROGRAM). Per variant: registers, one pass (harness), warp instructions
# per 32 keys; whole sorts with CUB 13 in the same lease; NVIDIA test_sort with the kind compiled in. H100.
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
for v in 24:64:0 24:64:1 20:64:1 28:64:1 24:80:1; do
  IFS=: read i r k <<< "$v"
  c=/tmp/cs_${i}_${r}_$k
  CLPRIM_CACHE_DIR=$c CLPRIM_SORT_ITEMS=$i CLPRIM_SORT_MAX_REGS=$r CLPRIM_SORT_KIND_IN_PROGRAM=$k $B --sort uniform --type uint32 --preset short --algorithms onesweep --reps 1 > $c.bench 2>&1
  ptx $c $c.ptx
  ptxas -arch=sm_90 -v $c.ptx -o /dev/null 2>&1 | grep -A1 "sort_onesweep'" | tail -1 | sed 's/ptxas info *: //' > $c.regs
  t=$(/tmp/h sort $c.ptx 4 $((256 * i)) 2>&1 | grep -E 'pass' | tr '\n' ' ')
  ins=$(PROFILE=1 ncu --metrics smsp__inst_executed.sum -k regex:sort_onesweep --launch-skip 1 --launch-count 1 /tmp/h sort $c.ptx 4 $((256 * i)) 2>&1 | grep inst_executed | awk '{print $NF}' | tr -d ,)
  echo "items $i regs $r kind_in_program $k | $(cat $c.regs) | $t | warp-instr per 32 keys $(python3 -c "print(round(${ins:-0}/2**23,1))")" >> $R/variants.txt
done
cat $R/variants.txt
/tmp/cub --n 2^28 --reps 7 --segments 10000000 > $R/cub.csv 2>&1
for v in 24:64:0 24:64:1; do
  IFS=: read i r k <<< "$v"
  CLPRIM_SORT_ITEMS=$i CLPRIM_SORT_MAX_REGS=$r CLPRIM_SORT_KIND_IN_PROGRAM=$k $B --sort uniform --type uint32 --preset large --algorithms onesweep --reps 5 > $R/sort_${i}_${r}_$k.txt 2>&1
  echo "uint32 items $i regs $r kip $k: $(grep ^268435456 $R/sort_${i}_${r}_$k.txt)" >> $R/whole.txt
done
for k in 1; do
  CLPRIM_SORT_KIND_IN_PROGRAM=$k $B --sort uniform --type uint32 --preset large --algorithms onesweep --values 4 --reps 5 > $R/pairs_$k.txt 2>&1
  echo "pairs kip $k: $(grep ^268435456 $R/pairs_$k.txt)" >> $R/whole.txt
  CLPRIM_SORT_KIND_IN_PROGRAM=$k $B --sort uniform --type float --preset large --algorithms onesweep --reps 5 > $R/float_$k.txt 2>&1
  echo "float kip $k: $(grep ^268435456 $R/float_$k.txt)" >> $R/whole.txt
  CLPRIM_SORT_KIND_IN_PROGRAM=$k $B --sort uniform --type uint64 --preset large --algorithms onesweep --reps 5 > $R/u64_$k.txt 2>&1
  echo "uint64 kip $k: $(grep ^268435456 $R/u64_$k.txt)" >> $R/whole.txt
done
CLPRIM_SORT_KIND_IN_PROGRAM=1 timeout 130 ctest --test-dir /tmp/b -R "test_sort" --output-on-failure > $R/ctest_kip1.log 2>&1
cat $R/cub.csv $R/whole.txt
tail -2 $R/ctest_kip1.log
cd $OUT && tar czf r3.tgz r && rm -rf r
