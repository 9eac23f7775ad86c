// Writes each distinct kernel source of a paper CSV's `src` column to a file of a folder: seeds
// for the rewriter fuzz target (scripts/fuzz rewriter). Usage: write_paper_seeds CSV FOLDER
#include <cstdio>
#include <set>
#include <string>

#include "data/csv_reader.hpp"
#include "data/file_io.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: write_paper_seeds CSV FOLDER\n");
    return 2;
  }
  try {
    const deeptune::data::CsvTable table = deeptune::data::readCsv(argv[1]);
    const size_t src = table.column("src");
    std::set<std::string> seen;
    for (const auto& row : table.rows) {
      if (!seen.insert(row[src]).second) continue;
      deeptune::data::writeFileAtomically(
          std::string(argv[2]) + "/paper-" + std::to_string(seen.size()) + ".cl", row[src]);
    }
    std::printf("%zu sources\n", seen.size());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "write_paper_seeds: %s\n", error.what());
    return 1;
  }
  return 0;
}
