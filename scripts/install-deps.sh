#!/usr/bin/env bash
# Installs every Debian 12 package the project builds, tests and benchmarks with.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends \
  build-essential cmake pkg-config \
  libclang-cpp15-dev libclang-15-dev llvm-15-dev libclc-15-dev clang-15 clang-format-15 \
  libtorch-dev libopenblas0-pthread \
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd \
  libboost-program-options-dev catch2 nlohmann-json3-dev help2man man-db libxxhash-dev \
  libxgboost-dev \
  xxhash python3 \
  python3-dev pybind11-dev python3-numpy python3-pytest python3-pyopencl  # the Python package
# LibTorch multiplies through the system BLAS. Training folds on two threads needs one that is
# safe for concurrent calls: Debian's single-threaded OpenBLAS is not (model/README.md), so point
# the BLAS alternatives at the pthread build even where the serial one is installed too.
for lib in libblas.so.3 liblapack.so.3 libopenblas.so.0; do
  $SUDO update-alternatives --set "$lib-x86_64-linux-gnu" \
    "/usr/lib/x86_64-linux-gnu/openblas-pthread/$lib" >/dev/null
done
