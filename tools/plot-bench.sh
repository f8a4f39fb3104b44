#!/bin/sh
# SPDX-License-Identifier: MIT
# Draws clprim-bench's CSV as a PNG: GB/s against n (log scale), one line per
# algorithm, and the ceiling measured in the same run: the device's
# clEnqueueCopyBuffer bandwidth for scans, its read bandwidth for reduce.
#   usage: clprim-plot-bench bench.csv bench.png   (tools/plot-bench.sh in the tree)
set -eu
case "${1:-}" in -h|--help) sed -n '3,6p' "$0"; exit 0 ;; esac
[ $# -ge 2 ] || { echo "usage: $0 bench.csv bench.png" >&2; exit 2; }
csv=$1 png=$2
shift 2
command -v gnuplot >/dev/null || { echo "plot-bench.sh: gnuplot is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# CSV columns: 5 mode, 6 algorithm, 7 n, 10 GB/s, 11 copy GB/s, 18 read GB/s
# (see clprim-bench.c); --sort's: 12 GB/s, 13 copy GB/s (bench_sort.c)

title=$(awk -F, 'NR == 2 { gsub(/"/, "", $1); gsub(/"/, "", $2); print $1 ", driver " $2 ", " $3 " " $4 " " $5 }' "$csv")
algos=$(awk -F, 'NR > 1 { print $6 }' "$csv" | awk '!seen[$0]++')
value=10
if head -1 "$csv" | grep -q limit_bytes; then # --sort: an 8-bit one-sweep sort's bytes
  value=12 ceiling=13 ceiling_title='clEnqueueCopyBuffer' ylabel='GB/s (one-sweep bytes)'
elif awk -F, 'NR == 2 { exit $5 == "reduce" ? 0 : 1 }' "$csv"; then
  ceiling=18 ceiling_title='read kernel (float4)' ylabel='GB/s (bytes read)'
else
  ceiling=11 ceiling_title='clEnqueueCopyBuffer' ylabel='GB/s (bytes read + written)'
fi
awk -F, -v c=$ceiling 'NR > 1 && !seen[$7]++ { print $7, $c }' "$csv" | sort -n > "$tmp/ceiling.dat"
plot="'$tmp/ceiling.dat' using 1:2 with lines dashtype 2 linewidth 2 linecolor rgb 'black' title '$ceiling_title'"
# one colour per algorithm (gnuplot's default cycle repeats after 8)
set -- '#1b9e77' '#d95f02' '#7570b3' '#e7298a' '#66a61e' '#e6ab02' '#a6761d' '#1f78b4' '#e31a1c' '#6a3d9a' '#b15928' '#666666'
for a in $algos; do
  awk -F, -v a="$a" -v v=$value 'NR > 1 && $6 == a { print $7, $v }' "$csv" | sort -n > "$tmp/$a.dat"
  plot="$plot, '$tmp/$a.dat' using 1:2 with linespoints linewidth 2 linecolor rgb '$1' title '$a'"
  shift
done
gnuplot <<GP
set terminal pngcairo size 1100,700 font ",11"
set output "$png"
set title "$title"
set logscale x 2
set format x "2^{%L}"
set xlabel "n (elements)"
set ylabel "$ylabel"
set key left top
set grid
plot $plot
GP
echo "wrote $png"
