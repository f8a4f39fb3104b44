#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs tests/consumer outside the tree, the ways a user takes
# clprim in:
#   check-consumers.sh tree BUILD_DIR   install BUILD_DIR into a prefix, then
#                                       find_package, pkg-config, FetchContent
#                                       and add_subdirectory
#   check-consumers.sh system           find_package and pkg-config of a clprim
#                                       installed in the system (the .deb)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the consumer's own test only: clprim adds none to a parent project
consumer() { # name, cmake options...
  local name=$1; shift
  echo "+ consumer: $name"
  cmake -S "$src/tests/consumer" -B "$work/$name" "$@" >"$work/$name.log" 2>&1 ||
    { cat "$work/$name.log"; exit 1; }
  cmake --build "$work/$name" -j"$(nproc)" >>"$work/$name.log" 2>&1 ||
    { cat "$work/$name.log"; exit 1; }
  local tests
  tests=$(ctest --test-dir "$work/$name" -N | sed -n 's/^Total Tests: //p')
  [ "$tests" = 2 ] || { echo "$name: expected the consumer's 2 tests, found $tests"; exit 1; }
  ctest --test-dir "$work/$name" --output-on-failure --no-tests=error
}

pkgconfig() { # name, PKG_CONFIG_PATH
  echo "+ consumer: $1 (pkg-config $(PKG_CONFIG_PATH=$2 pkg-config --modversion clprim))"
  # shellcheck disable=SC2046
  cc -std=c99 -Wall -Wextra -Werror -o "$work/$1" "$src/tests/consumer/consumer.c" \
     $(PKG_CONFIG_PATH=$2 pkg-config --cflags --libs clprim) \
     -Wl,-rpath,"$(PKG_CONFIG_PATH=$2 pkg-config --variable=libdir clprim)"
  "$work/$1"
  # the static library with its private dependencies
  # shellcheck disable=SC2046
  cc -std=c99 -o "$work/$1-static" "$src/tests/consumer/consumer.c" \
     $(PKG_CONFIG_PATH=$2 pkg-config --cflags clprim) \
     "$(PKG_CONFIG_PATH=$2 pkg-config --variable=libdir clprim)/libclprim.a" \
     $(PKG_CONFIG_PATH=$2 pkg-config --libs-only-other --libs-only-l --static clprim | sed 's/-lclprim//')
  "$work/$1-static"
}

# clprim_mpi where it was installed: examples/mpi_scan.c built with mpicc and
# pkg-config, run on 2 ranks
mpi() { # name, PKG_CONFIG_PATH
  if ! PKG_CONFIG_PATH=$2 pkg-config --exists clprim_mpi 2>/dev/null || ! command -v mpicc >/dev/null; then
    echo "+ consumer: $1 skipped (no clprim_mpi installed, or no mpicc)"
    return
  fi
  echo "+ consumer: $1 (pkg-config clprim_mpi $(PKG_CONFIG_PATH=$2 pkg-config --modversion clprim_mpi))"
  # shellcheck disable=SC2046
  mpicc -std=c99 -Wall -Wextra -Werror -o "$work/$1" "$src/examples/mpi_scan.c" \
     $(PKG_CONFIG_PATH=$2 pkg-config --cflags --libs clprim_mpi) \
     -Wl,-rpath,"$(PKG_CONFIG_PATH=$2 pkg-config --variable=libdir clprim_mpi)"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun -np 2 --oversubscribe "$work/$1"
}

case ${1:-} in
tree)
  build=$2
  prefix=$work/prefix
  cmake --install "$build" --prefix "$prefix" >/dev/null
  libdir=$(find "$prefix" -name clprim.pc -printf '%h\n' | head -n1)
  consumer package -DCLPRIM_FROM=package -DCMAKE_PREFIX_PATH="$prefix"
  pkgconfig pkg-config "$libdir"
  mpi mpi-pkg-config "$libdir"
  # FetchContent takes the checkout's HEAD: only where HEAD is what is built
  if git -C "$src" rev-parse HEAD >/dev/null 2>&1 &&
     [ -z "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    consumer fetch -DCLPRIM_FROM=fetch -DCLPRIM_GIT="$src" -DCLPRIM_GIT_TAG="$(git -C "$src" rev-parse HEAD)"
  else
    echo "+ consumer: fetch skipped ($src is not a git checkout, or not at its HEAD)"
  fi
  consumer subdir -DCLPRIM_FROM=subdir -DCLPRIM_SOURCE_DIR="$src"
  ;;
system)
  consumer system-package -DCLPRIM_FROM=package
  pkgconfig system-pkg-config ""
  mpi system-mpi ""
  ;;
*) echo "usage: $0 tree BUILD_DIR | system" >&2; exit 2 ;;
esac
