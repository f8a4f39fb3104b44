#!/bin/bash
# Shared by this folder's runs (H100, issue 28's summed-area table): build,
# then bench_variant NAME [VAR=VALUE ...] runs clprim-bench --sat int32 at
# 4096^2 and 16384^2 with those knobs, and sat_test NAME [VAR=VALUE ...] runs
# NVIDIA's test_sat with them. Outputs under $OUT/r.
. .gpu/device-env.sh >/dev/null 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  cmake --build /tmp/b -j16 --target clprim-bench clprim_test_sat >/dev/null 2>&1 ||
  { echo build failed; exit 1; }
export CLPRIM_DEVICE=NVIDIA
R=$OUT/r
mkdir -p $R
bench_variant() {
  local name=$1; shift; echo "$(date +%T) $name" >> $R/times.txt
  env "$@" timeout 40 /tmp/b/tools/clprim-bench --sat int32 --sat-sides 4096,16384 --reps 5 \
    --csv $R/$name.csv > $R/$name.txt 2>&1
}
sat_test() {
  local name=$1; shift; echo "$(date +%T) $name" >> $R/times.txt
  env "$@" timeout 60 ctest --test-dir /tmp/b -R test_sat --output-on-failure > $R/test_$name.log 2>&1
  echo "test_sat $name: $(grep -Eo '[0-9]+% tests passed.*' $R/test_$name.log || tail -1 $R/test_$name.log)"
}
# last: the tarball, then each variant's single-pass rows
finish() {
  (cd $OUT && tar czf $1.tgz r && rm -rf r)
  for f in $(tar tzf $OUT/$1.tgz | grep 'txt$' | sort); do
    printf "%-22s" $(basename $f .txt)
    tar xzf $OUT/$1.tgz -O $f | awk '$2 == "decoupled-lookback" {printf " %s:%s us %s %s", $1, $3, $6, $8}'
    echo
  done
}
