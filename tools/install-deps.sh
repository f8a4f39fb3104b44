#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what building and testing clprim needs on Debian / Ubuntu: a C
# compiler, CMake, pkg-config, the OpenCL headers and ICD loader, PoCL
# (OpenCL on the CPU, so there is always a device), cmocka, clinfo and
# gnuplot (benchmark charts), and Open MPI (clprim_mpi and its tests).
# Skips apt when all are there.
set -eu
pkgs="build-essential cmake pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libcmocka-dev clinfo gnuplot-nox openmpi-bin libopenmpi-dev"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
