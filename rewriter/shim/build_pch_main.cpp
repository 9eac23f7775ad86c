// Build step: writes the rewriter's precompiled OpenCL shim header into a folder
// (share/deeptune/pch).
#include <cstdio>
#include <exception>

#include "rewriter/internal/shim_pch.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: deeptune-shim-pch FOLDER\n");
    return 2;
  }
  try {
    std::printf("%s\n", deeptune::rewriter::internal::writeShimPch(argv[1]).c_str());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "deeptune-shim-pch: %s\n", error.what());
    return 1;
  }
  return 0;
}
