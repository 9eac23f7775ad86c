#!/usr/bin/env bash
# Installs every Debian 12 package the project builds, tests and benchmarks with.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends \
  build-essential cmake pkg-config \
  libclang-cpp14-dev libclang-14-dev llvm-14-dev libclc-14-dev clang-14 clang-format-14 \
  libtorch-dev libopenblas0-serial \
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd \
  libboost-program-options-dev catch2 nlohmann-json3-dev
