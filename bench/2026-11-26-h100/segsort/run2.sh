#!/bin/bash
# Issue 29, segmented sort step 2 (one rank loop over key and index digits, segment indices from
# heads scanned in local memory): 2^28 uint32 keys in 10^5 and 10^7 equal segments, tile and
# register sweeps (CLPRIM_SORT_ITEMS, CLPRIM_SORT_MAX_REGS: the row's 64 bound the kernel
# sort_segments); NVIDIA ctest of test_sort.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r; mkdir -p $R
B=/tmp/b/tools/clprim-bench
r() { local name=$1; shift; local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" $B --sort uniform --type uint32 --preset large --reps 5 --batch 0 "$@" > $R/$name.txt 2>&1
  printf "%-28s %s\n" "$name" "$(grep ^268435456 $R/$name.txt | awk '{print $3, $5, $NF}' | tr '\n' ' ')"; }
for m in 100000 10000000; do
  r s${m}_row X=1 -- --sort-segments $m
  for it in 8 12 16; do r s${m}_i$it CLPRIM_SORT_ITEMS=$it -- --sort-segments $m; done
  for g in 0 96; do r s${m}_r$g CLPRIM_SORT_MAX_REGS=$g -- --sort-segments $m; done
done
r s100000_v4 X=1 -- --sort-segments 100000 --values 4
r s1000_row X=1 -- --sort-segments 1000
timeout 200 ctest --test-dir /tmp/b -R "test_sort" --output-on-failure > $R/ctest.log 2>&1
tail -3 $R/ctest.log
cd $OUT && tar czf r2.tgz r && rm -rf r
