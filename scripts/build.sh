#!/usr/bin/env bash
# Configures (once) and builds the project into build/ with two jobs; the CLI lands in build/bin.
# The settings are CMakePresets.json's `release` preset.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/CMakeCache.txt ]; then
  cmake --preset release
fi
cmake --build --preset release
