#!/usr/bin/env bash
# ctest: install the build tree to a temporary prefix, build this folder's project against it
# with find_package(deeptune CONFIG), and run it with no deeptune executable anywhere it looks.
set -euo pipefail
build_dir=$1
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/deeptune-external.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/prefix" >/dev/null
# The installed CLI: its version and models from the installed tree, the training commands
# through deeptune-train beside it, the man page and bash completion.
# (Each output is read whole before grep: `| grep -q` would close the pipe at the first match,
# and under pipefail a writer still writing, e.g. a help text over 4 KiB, fails of SIGPIPE.)
version=$(env -u DEEPTUNE_MODELS "$scratch/prefix/bin/deeptune" --version)
grep -q "bundled models: $scratch/prefix/share/deeptune/models" <<<"$version" \
  || { echo "installed deeptune --version does not find the installed models"; exit 1; }
help=$("$scratch/prefix/bin/deeptune" help train)
grep -q "usage: deeptune train" <<<"$help" || { echo "installed deeptune help train failed"; exit 1; }
[ -f "$scratch/prefix/share/bash-completion/completions/deeptune" ] || { echo "no bash completion"; exit 1; }
man_page=$(find "$scratch/prefix" -name deeptune.1 | head -1)
[ -n "$man_page" ] || { echo "not installed: the man page"; exit 1; }
page=$(MANPATH="$scratch/prefix/share/man" man -P cat deeptune 2>/dev/null || true)
grep -q "help CMD" <<<"$page" || { echo "man deeptune does not show the installed page"; exit 1; }
rm -rf "$scratch/prefix/bin"  # the CLI is not needed: prediction runs in the program's process
for file in lib/cmake/deeptune/deeptuneConfig.cmake lib/cmake/deeptune/deeptuneConfigVersion.cmake \
            lib/pkgconfig/deeptune.pc include/deeptune/api/advisor.hpp \
            share/deeptune/models/devmap-amd.model; do
  found=$(find "$scratch/prefix" -path "*${file#lib/}" | head -1)
  [ -n "$found" ] || { echo "not installed: $file"; exit 1; }
done
# Versioned shared libraries: a SONAME with the version, the link names pointing at it.
for lib in data runtime predictor advisor launcher; do
  so=$(find "$scratch/prefix" -name "libdeeptune_$lib.so" | head -1)
  [ -n "$so" ] || { echo "not installed: libdeeptune_$lib.so"; exit 1; }
  dynamic=$(readelf -d "$so")
  grep -q "Library soname: \[libdeeptune_$lib.so.[0-9]*\.[0-9]*\]" <<<"$dynamic" \
    || { echo "libdeeptune_$lib.so has no versioned SONAME"; exit 1; }
done
[ -f "$scratch/prefix/include/deeptune/version.hpp" ] || { echo "not installed: version.hpp"; exit 1; }
cmake -S "$here" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/build" >/dev/null
# The same program built with pkg-config's flags alone.
export PKG_CONFIG_PATH=$(dirname "$(find "$scratch/prefix" -name deeptune.pc)")
# shellcheck disable=SC2046  # the flags are words
c++ -std=c++17 -I "$here/app_headers" -o "$scratch/user_app_pc" "$here/main.cpp" \
  $(pkg-config --cflags --libs deeptune)
cd "$scratch"
for app in "$scratch/build/user_app" "$scratch/user_app_pc"; do
  env -u DEEPTUNE_MODELS -u DEEPTUNE_EXECUTABLE -u DEEPTUNE_CACHE_DIR \
    XDG_CACHE_HOME="$scratch/cache" PATH=/usr/bin:/bin "$app"
done
# The shim PCH installed with the package was found and loaded: no process built one.
[ ! -e "$scratch/cache/deeptune" ] || { echo "the installed shim PCH was not used"; exit 1; }
