#!/bin/bash
# Issue 33: the PORTABLE reduce and scan with several tiles per work-group
# (wip/portable-fast: 256 work-items = 4 tiles, staged through local memory)
# against NONE on the H100: scan and reduce, float and double, 2^24 and
# 2^28 (clprim-bench, 11 timed calls, median device time); then the same for
# float PORTABLE without staging (-DCLPRIM_PORTABLE_STAGED=0, what CPUs run)
# and with variants built from copies of this tree (work-groups of 128 and
# 512 work-items, and the scan's spans in launch order instead of reversed);
# then NVIDIA's test_repro (PORTABLE's stored bits; also not staged),
# test_reduce, test_scan.
# Prints a table (also $OUT/p/table.txt); logs in $OUT/p.tgz.
. .gpu/device-env.sh >/dev/null 2>&1
R=$OUT/p; mkdir -p $R
SRC=$(pwd)
build() { # dir src: a Release build of src in dir
  cmake -S "$2" -B "$1" -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build "$1" -j16 ${3:+--target $3} >/dev/null 2>&1
}
build /tmp/b "$SRC" || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
(date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) > $R/when.txt

# bench name dir mode type level [VAR=value...]: one clprim-bench run to $R/name.txt
bench() {
  local name=$1 dir=$2 mode=$3 t=$4 r=$5; shift 5
  env "$@" CLPRIM_CACHE_DIR=/tmp/c_$(basename $dir) timeout 120 $dir/tools/clprim-bench \
    $([ $mode = reduce ] && echo --reduce) --type $t --algorithms auto --preset 24,28 --repro $r \
    --reps 11 --batch 0 > $R/$name.txt 2>&1 || echo "$name: rc $?" >> $R/errors.txt
}
# device_us and ratio (of copy for the scan, of read for the reduce) at n
us() { awk -v n=$2 '$1 == n {print $3; exit}' $R/$1.txt; }
ratio() { awk -v n=$2 '$1 == n {print $7; exit}' $R/$1.txt; }

for mode in scan reduce; do for t in float double; do for r in none portable; do
  bench ${mode}_${t}_${r} /tmp/b $mode $t $r
done; done; done

# variants of the float PORTABLE calls (the bits are the same; speed only)
variant() { # name sed-expression file
  rm -rf /tmp/src_$1 && mkdir -p /tmp/src_$1 && cp -r "$SRC"/. /tmp/src_$1/ && rm -rf /tmp/src_$1/.git
  sed -i "$2" /tmp/src_$1/$3
  cmp -s "$SRC/$3" /tmp/src_$1/$3 && { echo "variant $1: sed changed nothing" >> $R/errors.txt; return; }
  build /tmp/b_$1 /tmp/src_$1 clprim-bench || { echo "variant $1: build failed" >> $R/errors.txt; return; }
  for mode in scan reduce; do bench ${mode}_float_portable_$1 /tmp/b_$1 $mode float portable; done
}
# not staged through local memory (what CPUs run), same build
for mode in scan reduce; do
  bench ${mode}_float_portable_unstaged /tmp/b $mode float portable CLPRIM_BUILD_OPTIONS=-DCLPRIM_PORTABLE_STAGED=0
done
variant wg128 's/^#define PORTABLE_GROUP_WG_GPU 256u/#define PORTABLE_GROUP_WG_GPU 128u/' src/element.c
variant wg512 's/^#define PORTABLE_GROUP_WG_GPU 256u/#define PORTABLE_GROUP_WG_GPU 512u/' src/element.c
variant fwd 's/(ulong)get_num_groups(0) - 1 - get_group_id(0)/(ulong)get_group_id(0)/' cl/portable.cl

{
printf "%-7s %-7s %-10s %10s %10s %8s %9s %9s\n" mode type n none_us port_us port/none none_rat port_rat
for mode in scan reduce; do for t in float double; do for n in 16777216 268435456; do
  a=$(us ${mode}_${t}_none $n); b=$(us ${mode}_${t}_portable $n)
  printf "%-7s %-7s %-10s %10s %10s %8s %9s %9s\n" $mode $t $n "$a" "$b" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.2f", b / a }')" \
    "$(ratio ${mode}_${t}_none $n)" "$(ratio ${mode}_${t}_portable $n)"
done; done; done
echo "(ratio: of copy for the scan, of read for the reduce, measured in the same run)"
echo "float PORTABLE variants, device us at 2^24 / 2^28 (default: wg 256, scan spans reversed):"
for v in unstaged wg128 wg512 fwd; do for mode in scan reduce; do
  [ -f $R/${mode}_float_portable_$v.txt ] && echo "  $v $mode: $(us ${mode}_float_portable_$v 16777216) / $(us ${mode}_float_portable_$v 268435456) us"
done; done
} | tee $R/table.txt

(cd /tmp/b && CLPRIM_CACHE_DIR=/tmp/c_b timeout 300 ./tests/test_repro > $R/test_repro.log 2>&1; echo "test_repro rc $?" >> $R/tests.txt
 grep "^# portable" $R/test_repro.log >> $R/tests.txt
 CLPRIM_BUILD_OPTIONS=-DCLPRIM_PORTABLE_STAGED=0 CLPRIM_CACHE_DIR=/tmp/c_b timeout 300 ./tests/test_repro > $R/test_repro_unstaged.log 2>&1; echo "test_repro (not staged) rc $?" >> $R/tests.txt
 CLPRIM_CACHE_DIR=/tmp/c_b timeout 100 ctest -R 'test_reduce' --output-on-failure > $R/ctest.log 2>&1; echo "ctest (test_reduce) rc $?" >> $R/tests.txt
 tail -4 $R/ctest.log >> $R/tests.txt)
cat $R/tests.txt; [ -f $R/errors.txt ] && cat $R/errors.txt
cd $OUT && tar czf p.tgz p && rm -rf p
