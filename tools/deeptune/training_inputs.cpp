// What train and evaluate read before they call the training library.
#include "tools/deeptune/training_inputs.hpp"

#include <cctype>
#include <cstdio>
#include <filesystem>

#include "data/csv_reader.hpp"
#include "training/training_error.hpp"
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

training::StartingModel loadStartingModel(const std::string& path, const std::string& command) {
  try {
    return training::loadDevmapStartingModel(path);
  } catch (const training::TrainingError& e) {
    throw UsageError(command + ": " + e.what());
  }
}

}  // namespace deeptune::cli
