// The rewriter's shim PCH cache: files written the safe way, a corrupt PCH rebuilt.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "rewriter/internal/shim_pch.hpp"
#include "rewriter/normalizer.hpp"
#include "tests/scratch_dir.hpp"

namespace fs = std::filesystem;
namespace internal = deeptune::rewriter::internal;

namespace {

const char* const kKernel = "__kernel void k(__global float* a) {\n  a[0] = 1;\n}\n";

std::string contentOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// DEEPTUNE_CACHE_DIR for one scope, and no PCH built with the project: the cache is used.
struct CacheFolder {
  std::string previous;
  bool had = false;
  explicit CacheFolder(const fs::path& dir) {
    if (const char* value = std::getenv("DEEPTUNE_CACHE_DIR")) {
      previous = value;
      had = true;
    }
    setenv("DEEPTUNE_CACHE_DIR", dir.c_str(), 1);
    internal::setInstalledPchDirectoryForTests("");
  }
  ~CacheFolder() {
    if (had) {
      setenv("DEEPTUNE_CACHE_DIR", previous.c_str(), 1);
    } else {
      unsetenv("DEEPTUNE_CACHE_DIR");
    }
    internal::setInstalledPchDirectoryForTests("");
  }
};

/// A cache folder only this user may write (else the rewriter does not trust it).
fs::path privateCacheFolder(const deeptune::test::ScratchDir& scratch) {
  const fs::path cache = scratch.path / "cache";
  fs::create_directory(cache);
  fs::permissions(cache, fs::perms::owner_all);
  return cache;
}

}  // namespace

TEST_CASE("links planted in the cache folder are neither followed nor replaced",
          "[rewriter][pch-cache]") {
  deeptune::test::ScratchDir scratch("deeptune-pch-links");
  const fs::path cache = privateCacheFolder(scratch);
  const std::string stem = internal::shimPchFileStem();
  const std::string victim = scratch.file("victim", "precious");
  fs::create_symlink(victim, cache / (stem + ".h"));
  fs::create_symlink(victim, cache / (stem + ".pch.xxh3"));
  CacheFolder folder(cache);
  // The rewrite works (its PCH in a folder of the process), the victim is untouched and the
  // links are still links.
  CHECK(deeptune::rewriter::Normalizer().normalize(kKernel, "k.cl").find("__kernel void A") == 0);
  CHECK(contentOf(victim) == "precious");
  CHECK(fs::is_symlink(cache / (stem + ".h")));
  CHECK(fs::is_symlink(cache / (stem + ".pch.xxh3")));
  // Writing the PCH there refuses by name.
  CHECK_THROWS_WITH(internal::writeShimPch(cache.string()),
                    Catch::Contains(stem + ".h is not a regular file"));
  CHECK(contentOf(victim) == "precious");
}

TEST_CASE("a truncated cached PCH whose checksum file matches is rebuilt",
          "[rewriter][pch-cache]") {
  deeptune::test::ScratchDir scratch("deeptune-pch-truncated");
  const fs::path cache = privateCacheFolder(scratch);
  const fs::path pch = internal::writeShimPch(cache.string());
  const auto size = fs::file_size(pch);
  fs::resize_file(pch, size / 2);
  const fs::path sum = cache / (internal::shimPchFileStem() + ".pch.xxh3");
  std::ofstream(sum, std::ios::binary | std::ios::trunc) << internal::shimPchChecksum(pch);
  CacheFolder folder(cache);
  CHECK(deeptune::rewriter::Normalizer().normalize(kKernel, "k.cl").find("__kernel void A") == 0);
  // Rebuilt in place, whole (it embeds the name it was written under, so a few bytes may differ).
  CHECK(fs::file_size(pch) + 64 > size);
  // And the next process (a new worker) finds it whole.
  CHECK(deeptune::rewriter::Normalizer().normalize(kKernel, "k.cl").find("__kernel void A") == 0);
}
