// What train and evaluate read before they call the training library.
#include "tools/deeptune/training_inputs.hpp"

#include <cstdio>
#include <filesystem>

#include "data/csv_reader.hpp"
#ifdef DEEPTUNE_WITH_REWRITER
#include "api/predictor.hpp"
#endif

namespace deeptune::cli {

api::DevmapInput readDevmapData(const std::string& path) {
#ifdef DEEPTUNE_WITH_REWRITER
  api::DevmapInput input = api::readDevmapInput(path);
  for (const std::string& note : input.notes) std::fprintf(stderr, "deeptune: %s\n", note.c_str());
  return input;
#else
  const data::CsvTable table = data::readCsv(path);
  if (data::isMeasureCsvHeader(table.header)) {
    throw data::DataError(path, 1, 1,
                          "a measure CSV is normalized by the rewriter, and this build has none");
  }
  return {data::devmapRows(table), {}, {}};
#endif
}

std::string startingModelPath(const std::string& argument, const po::variables_map& vm,
                              const std::string& command) {
  for (const char* shape : {"aux-scale", "pooling", "max-length", "paper-padding"}) {
    if (vm.count(shape) && !vm[shape].defaulted()) {
      throw UsageError(command + ": --from takes --" + shape + " from the model");
    }
  }
#ifdef DEEPTUNE_WITH_REWRITER
  // A network starts from a network: a bundled platform name means its DeepTune model.
  const std::string bundled = api::findDevmapModel(argument + "-deeptune");
  const std::string path = bundled.empty() ? api::findDevmapModel(argument) : bundled;
  if (!path.empty()) return path;
#else
  std::error_code ec;
  if (std::filesystem::exists(argument, ec)) return argument;
#endif
  throw UsageError(command + ": --from " + argument +
                   ": no such model file (or a bundled one: amd, nvidia)");
}

}  // namespace deeptune::cli
