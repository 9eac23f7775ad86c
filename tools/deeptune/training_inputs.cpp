// What train and evaluate read before they call the training library.
#include "tools/deeptune/training_inputs.hpp"

#include <cstdio>
#include <filesystem>

#include "data/csv_reader.hpp"
#include "training/model_training.hpp"
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

namespace {

/// The file `--from ARGUMENT` names: a model file or a bundled one ("" if none).
std::string resolveStartingModel(const std::string& argument) {
#ifdef DEEPTUNE_WITH_REWRITER
  // A network starts from a network: a bundled platform name means its DeepTune model.
  const std::string bundled = api::findDevmapModel(argument + "-deeptune");
  return bundled.empty() ? api::findDevmapModel(argument) : bundled;
#else
  std::error_code ec;
  return std::filesystem::exists(argument, ec) ? argument : "";
#endif
}

}  // namespace

std::string startingModelPath(const std::string& argument, const po::variables_map& vm,
                              const std::string& command) {
  const std::string path = resolveStartingModel(argument);
  if (path.empty()) {
    throw UsageError(command + ": --from " + argument +
                     ": no such model file (or a bundled one: amd, nvidia, opencl-lm)");
  }
  // A pretrained language model has no shape of its own to keep: the options give it.
  if (training::loadDevmapStartingModel(path).model.info().method == "language-model") return path;
  for (const char* shape : {"aux-scale", "pooling", "max-length", "paper-padding"}) {
    if (vm.count(shape) && !vm[shape].defaulted()) {
      throw UsageError(command + ": --from takes --" + shape + " from the model");
    }
  }
  return path;
}

}  // namespace deeptune::cli
