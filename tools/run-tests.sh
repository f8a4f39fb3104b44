#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the test suite of a build on each OpenCL implementation CI tests on:
# PoCL, then Intel's CPU runtime (tools/install-deps.sh --intel-cpu). Each
# runs alone in the tests' processes (OCL_ICD_VENDORS names its ICD file
# only): the ICD loader otherwise loads every registered runtime into every
# process, and PoCL's and Intel's, each with its own LLVM, were seen to
# trip over each other there (PoCL's assertion in
# pocl_release_dlhandle_cache under test_soak, 2026-11-26).
#
#   run-tests.sh [BUILD_DIR]     (default: build)
set -eu
build=${1:-build}
vendors=/etc/OpenCL/vendors
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# name, ICD file, CLPRIM_DEVICE, what installs it, then ctest's extra arguments
run() {
  name=$1 icd=$2 device=$3 installer=$4
  shift 4
  [ -f "$icd" ] || { echo "run-tests.sh: $icd is missing ($installer installs it)" >&2; exit 1; }
  mkdir -p "$tmp/$name"
  cp "$icd" "$tmp/$name/"
  echo "+ the suite on $device ($icd)"
  OCL_ICD_VENDORS="$tmp/$name" CLPRIM_DEVICE="$device" \
    ctest --test-dir "$build" --output-on-failure --no-tests=error --parallel "$(nproc)" "$@"
}
run pocl "$vendors/pocl.icd" Portable "tools/install-deps.sh"
# the second platform samples the fault sweeps three times as thinly (every
# sixth K in CI; test_faults.c says why)
export CLPRIM_FAULT_STRIDE_SCALE=3
run intel "$vendors/clprim-intel-cpu.icd" Intel "tools/install-deps.sh --intel-cpu"
