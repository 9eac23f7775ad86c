// data::fileHoldingCode: the program itself by its real path, a shared library by its own.
#include <catch2/catch.hpp>

#include <filesystem>

#include "data/code_location.hpp"
#include "data/file_io.hpp"

namespace {

int functionOfThisProgram() { return 31; }

}  // namespace

TEST_CASE("the file holding code: this program, a shared library, nothing", "[code_location]") {
  // dladdr names the main program by its argv[0]; the answer is /proc/self/exe's target instead.
  const auto program =
      deeptune::data::fileHoldingCode(reinterpret_cast<const void*>(&functionOfThisProgram));
  CHECK(program == std::filesystem::canonical("/proc/self/exe"));
  CHECK(program.is_absolute());
  const auto library = deeptune::data::fileHoldingCode(
      reinterpret_cast<const void*>(&deeptune::data::readFileBytes));
  CHECK(library.filename().string().rfind("libdeeptune_data.so", 0) == 0);
  CHECK(library.is_absolute());
  static const char notCode[16] = {};
  CHECK(deeptune::data::fileHoldingCode(nullptr).empty());
  CHECK_FALSE(deeptune::data::fileHoldingCode(notCode).empty());  // its data: the program
}
