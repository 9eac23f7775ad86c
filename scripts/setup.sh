#!/usr/bin/env bash
# Fresh Debian 12 machine to a working CLI: installs packages, builds, predicts for a sample kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/deeptune predict kernels/vector_add.cl --dsize 8388608 --wgsize 256
