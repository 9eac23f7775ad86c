#!/usr/bin/env bash
# Builds the project with AddressSanitizer + UndefinedBehaviorSanitizer into build-sanitize/ and
# runs every test there (ctest); any sanitizer report ends the program it is in, so its test fails.
# The settings are CMakePresets.json's `sanitize` preset (cache variables and environment).
set -euo pipefail
cd "$(dirname "$0")/.."
# The preset's environment, which its build and test presets inherit: reports end the program;
# leaks are checked at exit (tests/sanitizers/lsan.supp names the third-party libraries whose own
# allocations at exit are not ours to free). A segmentation fault is left to the kernel
# (handle_segv=0): the process dies of the signal, as the isolation tests expect of a kernel's
# wild write, instead of ASan reporting it and exiting 1. The fault shim of the measure tests is
# preloaded before ASan's runtime (verify_asan_link_order=0).
if [ ! -f build-sanitize/CMakeCache.txt ]; then
  cmake --preset sanitize
fi
cmake --build --preset sanitize
ctest --preset sanitize "$@"
