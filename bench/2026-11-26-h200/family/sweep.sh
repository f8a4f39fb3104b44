#!/bin/bash
# H200: the compaction and reduce-by-keys shapes the H100 rows chose, against neighbours
# (knobs of docs/tuning.md), to see whether an H200 row is worth having. int32 2^28, ratio to copy.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
B=/tmp/b/tools/clprim-bench
R=$OUT/s; mkdir -p $R
r() { # name, env..., -- bench args
  local name=$1; shift; local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" $B --preset large --reps 5 --batch 0 "$@" > $R/$name.txt 2>&1
  printf "%-40s %s\n" "$name" "$(grep ^268435456 $R/$name.txt | awk '{print $(NF-3)}' | tr '\n' ' ')"
}
for op in select-flags partition-reversed select; do
  for it in 16 32; do for g in 2 4 8; do
    r c_${op}_i${it}_g$g CLPRIM_COMPACT_ITEMS=$it CLPRIM_COMPACT_GROUPS_PER_CU=$g -- --compact $op --algorithms single-pass
  done; done
done
for it in 16 24 32; do for g in 4 6 8; do
  r k_i${it}_g$g CLPRIM_SEGMENT_LOOP_ITEMS=$it CLPRIM_SEGMENT_LOOP_GROUPS_PER_CU=$g -- --segmented reduce-keys
done; done
for m in 64 96 128; do
  r k_r$m CLPRIM_SEGMENT_LOOP_KEYS_MAX_REGS=$m -- --segmented reduce-keys
done
for it in 16 24 32; do
  r f_i$it CLPRIM_SEGMENT_LOOP_FLAGS_REDUCE_ITEMS=$it -- --segmented reduce-flags
done
cd $OUT && tar czf s.tgz s && rm -rf s
