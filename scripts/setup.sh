#!/usr/bin/env bash
# Fresh Debian 12 machine to a working CLI: installs packages, builds, runs the main job once.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/deeptune rewrite kernels/vector_add.cl
