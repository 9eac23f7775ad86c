// libFuzzer target: the CSV reader on any bytes (tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "data/csv_reader.hpp"
#include "data/data_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto table =
        deeptune::data::parseCsv(std::string_view(reinterpret_cast<const char*>(data), size), "f");
    for (size_t row = 0; row < table.rows.size(); ++row) {
      if (table.rows[row].size() != table.header.size()) __builtin_trap();  // the reader's promise
      for (size_t column = 0; column < table.header.size(); ++column) {
        try {
          (void)table.doubleAt(row, column);
          (void)table.intAt(row, column);
        } catch (const deeptune::data::DataError&) {
        }
      }
    }
  } catch (const deeptune::data::DataError&) {
  }
  return 0;
}
