#!/usr/bin/env bash
# Builds the project with AddressSanitizer + UndefinedBehaviorSanitizer into build-sanitize/ and
# runs every test there (ctest); any sanitizer report ends the program it is in, so its test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
suppressions=$PWD/tests/sanitizers
# Reports end the program; leaks are checked at exit (tests/sanitizers/lsan.supp names the
# third-party libraries whose own allocations at exit are not ours to free). A segmentation
# fault is left to the kernel (handle_segv=0): the process dies of the signal, as the isolation
# tests expect of a kernel's wild write, instead of ASan reporting it and exiting 1. The fault
# shim of the measure tests is preloaded before ASan's runtime (verify_asan_link_order=0).
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:handle_segv=0:verify_asan_link_order=0
export LSAN_OPTIONS=suppressions=$suppressions/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if [ ! -f build-sanitize/CMakeCache.txt ]; then
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1" \
    -DDEEPTUNE_SANITIZE=address,undefined -DDEEPTUNE_BUILD_BENCH=OFF
fi
cmake --build build-sanitize -j2
ctest --test-dir build-sanitize --output-on-failure -j2 "$@"
