// The device-mapping data of train and evaluate: the paper's CSV, or a measure CSV normalized.
#include "api/devmap_input.hpp"

#include <map>
#include <utility>

#include "data/csv_reader.hpp"
#include "rewriter/normalizer.hpp"
#include "tokenizer/static_counts.hpp"

namespace deeptune::api {
namespace {

/// Grewe's static counts of the row's (normalized) source.
void estimateStaticCounts(data::DevmapRow& row) {
  const tokenizer::StaticCounts counts = tokenizer::staticCounts(row.src);
  row.comp = counts.comp;
  row.rational = counts.rational;
  row.mem = counts.mem;
  row.localmem = counts.localmem;
  row.coalesced = counts.coalesced;
  row.atomic = counts.atomic;
}

}  // namespace

DevmapInput readDevmapInput(const std::string& path) {
  DevmapInput input;
  const data::CsvTable table = data::readCsv(path);
  if (!data::isMeasureCsvHeader(table.header)) {
    input.rows = data::devmapRows(table);
    return input;
  }
  data::MeasuredDevmap measured = data::measuredDevmap(table);
  // Each (file text, kernel) is normalized once: a file's kernels at every size share it.
  rewriter::Normalizer normalizer;
  std::map<std::pair<std::string, std::string>, std::string> normalized;
  size_t failed = 0, ties = 0;
  for (size_t r = 0; r < measured.rows.size(); ++r) {
    data::DevmapRow& row = measured.rows[r];
    const std::string& kernel = measured.kernels[r];
    auto key = std::make_pair(row.src, kernel);
    auto found = normalized.find(key);
    if (found == normalized.end()) {
      const size_t colon = row.benchmark.rfind(':');
      const std::string file =
          colon == std::string::npos ? row.benchmark : row.benchmark.substr(0, colon);
      std::string text;
      try {
        text = normalizer.extractKernel(row.src, file, kernel);
      } catch (const std::exception& e) {
        input.notes.push_back(path + ": skipped " + row.benchmark + ": " + e.what());
      }
      found = normalized.emplace(std::move(key), std::move(text)).first;
    }
    if (found->second.empty()) {
      ++failed;
      continue;
    }
    row.src = found->second;
    estimateStaticCounts(row);
    ties += row.tie ? 1 : 0;
    input.rows.push_back(std::move(row));
  }
  if (input.rows.empty()) {
    throw data::DataError(path, 1, 1, "no measured kernel could be normalized");
  }
  input.devices = {measured.devices[0], measured.devices[1]};
  input.notes.push_back(path + ": " + std::to_string(input.rows.size()) + " rows, " +
                        input.devices[0].name + " (" + input.devices[0].type + ") vs " +
                        input.devices[1].name + " (" + input.devices[1].type + "); " +
                        std::to_string(measured.skipped) + " skipped without two usable timings, " +
                        std::to_string(failed) + " whose kernel did not normalize; " +
                        std::to_string(ties) + " ties");
  return input;
}

}  // namespace deeptune::api
