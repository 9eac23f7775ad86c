#!/usr/bin/env bash
# Configures (once) and builds the project into build/ with two jobs; the CLI lands in build/bin.
# The settings are CMakePresets.json's `release` preset; DEEPTUNE_WERROR=ON in the environment
# (CI sets it) makes a warning in the project's own code an error.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/CMakeCache.txt ]; then
  cmake --preset release -DDEEPTUNE_WERROR="${DEEPTUNE_WERROR:-OFF}"
fi
cmake --build --preset release
