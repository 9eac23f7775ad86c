#!/usr/bin/env bash
# Configures (once) and builds the project into build/ with two jobs; the CLI lands in build/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build -j2
