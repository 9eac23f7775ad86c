#!/usr/bin/env bash
# Builds the project and runs every test (ctest); the paper data is read from ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j2
