// Test helper: the paper's AMD device-mapping rows, read once per test program.
#pragma once

#include <vector>

#include "data/datasets.hpp"
#include "tests/test_paths.hpp"

namespace deeptune::test {

/// cgo17-amd.csv's 680 rows.
inline const std::vector<data::DevmapRow>& amdPaperRows() {
  static const auto rows = data::readDevmapCsv(paperDataDir() + "/cgo17-amd.csv");
  return rows;
}

}  // namespace deeptune::test
