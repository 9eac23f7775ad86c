#!/usr/bin/env bash
# Runs clang-tidy (the checks of .clang-tidy; tests/.clang-tidy for the tests) over the project's
# own C++ sources with build/compile_commands.json. Arguments: files to check (default: every
# project .cpp in the database). Environment: DEEPTUNE_TIDY_BUILD (default build), JOBS (2).
# Prints the warnings; exits non-zero only when clang-tidy itself fails on a file.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${DEEPTUNE_TIDY_BUILD:-build}
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy: no $build/compile_commands.json; configure first (scripts/build.sh)" >&2
  exit 2
fi
tidy=$(command -v clang-tidy-15 || command -v clang-tidy || true)
runner=$(command -v run-clang-tidy-15 || command -v run-clang-tidy || true)
if [ -z "$tidy" ] || [ -z "$runner" ]; then
  echo "tidy: clang-tidy and run-clang-tidy are needed (Debian: apt-get install clang-tidy)" >&2
  exit 2
fi
modules='api|baselines|data|evaluation|model|rewriter|runtime|tokenizer|tools|training|bench|tests'
# Warnings in the project's own headers too, never in LibTorch's, Clang's or the system's.
header_filter="^$root/($modules)/"
if [ $# -gt 0 ]; then
  files=()
  for file in "$@"; do files+=("^$(realpath "$file")\$"); done
else
  files=("^$root/($modules)/.*\\.cpp\$")
fi
exec "$runner" -clang-tidy-binary "$tidy" -p "$build" -j "${JOBS:-2}" -quiet \
  -header-filter "$header_filter" "${files[@]}"
