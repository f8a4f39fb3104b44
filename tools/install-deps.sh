#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what building and testing clprim needs on Debian / Ubuntu: a C
# compiler, CMake, pkg-config, the OpenCL headers and ICD loader, PoCL
# (OpenCL on the CPU, so there is always a device), cmocka, clinfo and
# gnuplot (benchmark charts), and Open MPI (clprim_mpi and its tests).
# Skips apt when all are there.
#
#   install-deps.sh [--intel-cpu]
#
# --intel-cpu also installs Intel's CPU OpenCL runtime, a second OpenCL
# implementation with sub-groups that runs without a GPU (the test suite
# runs on it beside PoCL): the wheels of the Python package index
# (intel-opencl-rt, with intel-cmplr-lib-rt and tbb beside it) unpacked
# into /opt/clprim-intel-opencl, its libraries given each other's folders
# as their search path (patchelf) and libintelocl.so registered with the
# ICD loader. About 270 MB
# to download, 800 MB unpacked; skipped when it is registered already.
set -eu
intel=0
for a in "$@"; do
  case $a in
  --intel-cpu) intel=1 ;;
  *) echo "install-deps.sh: unknown option $a (known: --intel-cpu)" >&2; exit 2 ;;
  esac
done
pkgs="build-essential cmake pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libcmocka-dev clinfo gnuplot-nox openmpi-bin libopenmpi-dev"
[ "$intel" -eq 0 ] || pkgs="$pkgs python3-pip unzip patchelf"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
  $sudo apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
icd=/etc/OpenCL/vendors/clprim-intel-cpu.icd
if [ "$intel" -eq 1 ] && [ ! -f "$icd" ]; then
  # versions pinned: the ones the suite was run on (2026-11-26)
  dir=/opt/clprim-intel-opencl
  tmp=$(mktemp -d)
  PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" \
    intel-opencl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0 tbb==2023.2.0
  $sudo mkdir -p "$dir"
  for w in "$tmp"/*.whl; do $sudo unzip -q -o "$w" -d "$dir"; done
  rm -rf "$tmp"
  lib=$(find "$dir" -name 'libintelocl.so' | head -n 1)
  [ -n "$lib" ] || { echo "install-deps.sh: no libintelocl.so in the wheels" >&2; exit 1; }
  # the libraries find each other by their own search path, not through
  # ldconfig: the wheels carry an ICD loader (libOpenCL.so.1) and TBB, which
  # registered system-wide would stand in for the system's own
  dirs=$(find "$dir" -name '*.so*' -path '*/lib/*' -exec dirname {} \; | sort -u | paste -sd: -)
  find "$dir" -path '*/lib/*' -name '*.so*' -type f ! -name 'libOpenCL.so*' ! -name '*.py' |
    while read -r f; do $sudo patchelf --set-rpath "$dirs" "$f" 2>/dev/null || true; done
  $sudo mkdir -p /etc/OpenCL/vendors
  echo "$lib" | $sudo tee "$icd" >/dev/null
fi
