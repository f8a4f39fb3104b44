#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks clprim's host layering from the compiled objects, not by eye.
#
#   check-layers.sh layers INTERNAL_H OBJECT...
#       Reads the "layers:" line of src/internal.h (files of one layer
#       separated by spaces, layers by "|", bottom first) and fails when an
#       object calls or uses a clprim_ / clprim__ symbol defined in a file
#       of its own layer or a higher one (so no circle can exist), or when
#       an object is not in any layer. Prints the file-to-file graph.
#   check-layers.sh exports LIBRARY.so
#       Fails when the shared library exports any name but clprim_*.
set -euo pipefail
mode=$1; shift
case $mode in
exports)
  bad=$(nm -D --defined-only "$1" | awk '$2 ~ /^[TDRBVW]$/ && $3 !~ /^clprim_[a-z]/ && $3 !~ /^_/ {print $3}' | grep -v '^clprim__' || true)
  internal=$(nm -D --defined-only "$1" | awk '$3 ~ /^clprim__/ {print $3}' || true)
  if [ -n "$bad$internal" ]; then
    echo "exported beyond clprim_*:"; echo "$bad$internal"; exit 1
  fi
  echo "exports: $(nm -D --defined-only "$1" | awk '$3 ~ /^clprim_/' | wc -l) names, all clprim_*"
  ;;
layers)
  header=$1; shift
  line=$(sed -n 's/^ \* layers: //p' "$header")
  [ -n "$line" ] || { echo "no 'layers:' line in $header"; exit 1; }
  declare -A layer def
  n=0
  IFS='|' read -ra groups <<< "$line"
  for g in "${groups[@]}"; do
    for f in $g; do layer[$f]=$n; done
    n=$((n + 1))
  done
  # the embedded kernel sources are data: below everything
  layer[clprim_cl_sources]=-1
  for o in "$@"; do
    f=$(basename "$o"); f=${f%.o}; f=${f%.c}
    [ -n "${layer[$f]+x}" ] || { echo "$f is in no layer of $header"; exit 1; }
    while read -r sym; do def[$sym]=$f; done < <(nm --defined-only "$o" | awk '$2 ~ /^[TDRB]$/ && $3 ~ /^clprim_/ {print $3}')
  done
  status=0
  for o in "$@"; do
    f=$(basename "$o"); f=${f%.o}; f=${f%.c}
    uses=$(nm --undefined-only "$o" | awk '$2 ~ /^clprim_/ {print $2}' | while read -r sym; do
             [ -n "${def[$sym]+x}" ] && echo "${def[$sym]}"; done | sort -u | tr '\n' ' ')
    printf '%-14s (layer %2s) -> %s\n' "$f" "${layer[$f]}" "$uses"
    for u in $uses; do
      if [ "${layer[$u]}" -ge "${layer[$f]}" ]; then
        echo "  LAYER VIOLATION: $f (layer ${layer[$f]}) uses $u (layer ${layer[$u]})"; status=1
      fi
    done
  done
  exit $status
  ;;
*) echo "usage: $0 layers INTERNAL_H OBJECT... | exports LIBRARY.so"; exit 2 ;;
esac
