// The device-mapping data of train and evaluate: the paper's CSV, or a measure CSV normalized.
#include "tools/deeptune/devmap_input.hpp"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <utility>

#include "baselines/static_counts.hpp"
#include "data/csv_reader.hpp"
#ifdef DEEPTUNE_WITH_REWRITER
#include "api/predictor.hpp"
#include "rewriter/normalizer.hpp"
#endif

namespace deeptune::cli {
namespace {

/// A model file, or the platform name of a bundled model.
std::string resolveDevmapModel(const std::string& argument, const std::string& command) {
  std::error_code ec;
  if (std::filesystem::exists(argument, ec)) return argument;
  std::string lower;
  for (char c : argument) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "amd" || lower == "nvidia") {
#ifdef DEEPTUNE_WITH_REWRITER
    return api::findBundledModel(lower);
#else
    throw UsageError(command + ": this build has no bundled models; give a model file");
#endif
  }
  throw UsageError(command + ": --from " + argument +
                   ": no such model file (or a bundled one: amd, nvidia)");
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
#ifndef DEEPTUNE_WITH_REWRITER
  throw data::DataError(path, 1, 1,
                        "a measure CSV is normalized by the rewriter, and this build has none");
#else
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
        std::fprintf(stderr, "deeptune: %s: skipped %s: %s\n", path.c_str(), row.benchmark.c_str(),
                     e.what());
      }
      found = normalized.emplace(std::move(key), std::move(text)).first;
    }
    if (found->second.empty()) {
      ++failed;
      continue;
    }
    row.src = found->second;
    const baselines::StaticCounts counts = baselines::staticCounts(row.src);
    row.comp = counts.comp;
    row.rational = counts.rational;
    row.mem = counts.mem;
    row.localmem = counts.localmem;
    row.coalesced = counts.coalesced;
    row.atomic = counts.atomic;
    ties += row.tie ? 1 : 0;
    input.rows.push_back(std::move(row));
  }
  if (input.rows.empty()) {
    throw data::DataError(path, 1, 1, "no measured kernel could be normalized");
  }
  input.devices = {measured.devices[0], measured.devices[1]};
  std::fprintf(stderr,
               "deeptune: %s: %zu rows, %s (%s) vs %s (%s); %zu skipped without two usable "
               "timings, %zu whose kernel did not normalize; %zu ties\n",
               path.c_str(), input.rows.size(), input.devices[0].name.c_str(),
               input.devices[0].type.c_str(), input.devices[1].name.c_str(),
               input.devices[1].type.c_str(), measured.skipped, failed, ties);
  return input;
#endif
}

StartingModel loadStartingModel(const std::string& argument, const po::variables_map& vm,
                                const std::string& command) {
  for (const char* shape : {"aux-scale", "pooling", "max-length", "paper-padding"}) {
    if (vm.count(shape) && !vm[shape].defaulted()) {
      throw UsageError(command + ": --from takes --" + shape + " from the model");
    }
  }
  const std::string path = resolveDevmapModel(argument, command);
  StartingModel start{path, model::DeepTuneModel::load(path)};
  if (start.model.info().task != "devmap") {
    throw UsageError(command + ": --from needs a devmap model: " + argument);
  }
  return start;
}

}  // namespace deeptune::cli
