// One device-mapping evaluation: every chosen method cross-validated under a protocol, and the
// settings the report records.
#include "training/devmap_evaluation.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "data/csv_reader.hpp"
#include "data/data_error.hpp"
#include "data/duration_text.hpp"
#include "data/file_io.hpp"
#include "evaluation/protocol.hpp"
#include "evaluation/report_plots.hpp"
#include "model/boosted_trees.hpp"
#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"
#include "model/train_option_names.hpp"
#include "training/boosted_references.hpp"
#include "training/model_training.hpp"
#include "training/row_novelty.hpp"
#include "training/training_error.hpp"

namespace deeptune::training {
namespace {

/// The DeepTune settings line of the report.
std::string deeptuneSettings(const model::DeepTuneMethodOptions& options, const DeepTuneRuns& runs,
                             int requestedWorkers, size_t corpusExcluded) {
  std::string seeds;
  for (uint64_t seed : runs.seeds) seeds += (seeds.empty() ? "" : ", ") + std::to_string(seed);
  std::string variant;  // what differs from the paper's network and training
  if (options.auxScale != "raw") variant += ", " + options.auxScale + " aux inputs";
  if (options.pooling != "last") variant += ", " + options.pooling + " pooling";
  if (options.earlyStopping > 0) {
    char fraction[32];
    std::snprintf(fraction, sizeof fraction, "%.2f", options.earlyStopping);
    variant += ", early stopping on " + std::string(fraction) + " of the training sources";
  }
  if (options.pretrainEpochs > 0) {
    variant += ", next-token pretraining (" + std::to_string(options.pretrainEpochs) +
               " epochs) on the fold's training sources";
    if (!options.pretrainSources.empty()) {
      variant += " and " + std::to_string(options.pretrainSources.size()) + " corpus kernels";
    }
    if (corpusExcluded > 0) {
      variant += " (" + std::to_string(corpusExcluded) +
                 " corpus kernels identical to an evaluated source left out)";
    }
  }
  char line[512];
  std::snprintf(
      line, sizeof line,
      "DeepTune: %d epochs, batches of %d (%s), last %d tokens%s, %s LSTM%s; seeds %s (fold f "
      "adds f); %d workers (%d asked)",
      options.train.epochs, options.train.batchSize,
      model::batchingName(options.train.batching).c_str(), options.maxLength,
      options.paperPadding ? ", paper padding" : "", model::lstmName(options.train.lstm).c_str(),
      variant.c_str(), seeds.c_str(), runs.workers, requestedWorkers);
  return line;
}

/// The heads' settings line of the report.
std::string headSettings(const StateHeads& heads) {
  const model::BoostedTreeOptions boosted;
  return std::string(
             "heads on each fold model's LSTM states and log2 transfer and wgsize, "
             "fitted on the fold's training rows: ") +
         (heads.tree ? "deeptune-tree (a depth-5 tree, the Grewe tree's settings)" : "") +
         (heads.tree && heads.boosted ? "; " : "") +
         (heads.boosted
              ? "deeptune-boosted (XGBoost, " + std::to_string(boosted.rounds) + " rounds, depth " +
                    std::to_string(boosted.maxDepth) + ", learning rate " +
                    evaluation::formatNumber("%.1f", boosted.learningRate) + ", the run's seed)"
              : "") +
         (heads.boostedTokenCounts
              ? std::string(heads.tree || heads.boosted ? "; " : "") +
                    "deeptune-boosted-tc (the same boosted trees with the row's token counts, "
                    "of the fold model's vocabulary, between the states and the sizes" +
                    (heads.countsColumnSample < 1
                         ? "; each tree splits on a share " +
                               evaluation::formatNumber("%.2f", heads.countsColumnSample) +
                               " of the columns"
                         : std::string()) +
                    ")"
              : "");
}

/// The report's first settings: program, machine, data, leakage rule, subset, starting model.
std::vector<std::string> commonSettings(const DevmapEvaluationRequest& request,
                                        const model::DeepTuneMethodOptions& deeptune) {
  std::vector<std::string> settings;
  settings.push_back(std::string("program: deeptune ") + DEEPTUNE_VERSION);
  settings.push_back("machine: " + model::cpuDescription());
  if (!request.devices.empty()) {
    size_t ties = 0;
    for (const data::DevmapRow& row : request.rows) ties += row.tie ? 1 : 0;
    settings.push_back(
        "measured devices: " + request.devices[0].name + " (" + request.devices[0].type +
        ") in the CPU column, " + request.devices[1].name + " (" + request.devices[1].type +
        ") in the GPU column; " + std::to_string(ties) + " of " +
        std::to_string(request.rows.size()) +
        " rows are ties (the two devices' 95% intervals overlap), counted right for every "
        "method; Grewe's static counts estimated from the normalized source");
  }
  settings.push_back(evaluation::whatMethodsSaw(deeptune.vocabularyPerFold));
  const evaluation::TrainingSubset& subset = request.protocol.subset;
  if (subset.kernels > 0) {
    settings.push_back(
        "learning curve: every method of a fold trained on " + std::to_string(subset.kernels) +
        " of its training sources (drawn with seed " + std::to_string(subset.seed) + " + fold)");
  }
  if (!deeptune.startFrom.empty()) {
    settings.push_back(
        "DeepTune fine-tuned from " + deeptune.startFrom + " (" +
        (deeptune.startWhole ? "the whole network" : "its language model; fresh output layers") +
        ", its vocabulary; embedding and LSTM frozen for " +
        (deeptune.train.frozenEpochs < 0
             ? std::string("every epoch")
             : std::to_string(deeptune.train.frozenEpochs) + " epochs") +
        "); that model's own training data is outside these folds' control");
  }
  return settings;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// What DeepTune takes from the model it starts from: its vocabulary and the devices its labels
/// name (its shape goes into the method's options), or for a pretrained language model its
/// vocabulary alone.
struct FromModel {
  std::optional<tokenizer::Vocabulary> vocabulary;
  std::vector<std::string> devices;
  bool languageModel = false;
};

/// The model `path` loaded: its shape into `deeptune`, its vocabulary and devices returned.
FromModel startFrom(const std::string& path, model::DeepTuneMethodOptions& deeptune) {
  FromModel from;
  if (path.empty()) return from;
  try {
    const StartingModel start = loadDevmapStartingModel(path);
    const model::ModelInfo& info = start.model.info();
    deeptune.startFrom = start.path;
    from.vocabulary.emplace(info.vocabulary, start.path);
    deeptune.lstmSize = info.lstmSize;
    from.languageModel = info.method == "language-model";
    if (from.languageModel) return from;  // the network's shape is the request's
    deeptune.maxLength = info.maxLength;
    deeptune.auxScale = info.auxScale;
    deeptune.pooling = info.pooling;
    deeptune.paperPadding = info.paperPadding;
    from.devices = info.deviceNames;
  } catch (const TrainingError& e) {
    throw TrainingError("evaluate: " + std::string(e.what()));
  }
  return from;
}

/// DeepTune's runs and heads as methods, and their settings in the context.
void runDeepTune(const DevmapEvaluationRequest& request,
                 const model::DeepTuneMethodOptions& deeptune, const FromModel& from,
                 size_t corpusExcluded, const DevmapEvaluationProgress& progress,
                 DevmapEvaluation& result) {
  std::string note;
  const int usedWorkers = model::safeTrainingWorkers(request.workers, note);
  if (!note.empty() && progress.warning) progress.warning(note);
  const evaluation::Protocol& protocol = request.protocol;
  const DeepTuneRuns runs = crossValidateDeepTune(
      request.rows, protocol.foldOfRow,
      from.vocabulary ? *from.vocabulary : model::devmapVocabulary(request.rows, request.dataName),
      deeptune, request.seeds, usedWorkers, request.heads, progress.epoch, progress.fold,
      protocol.subset);
  const StateHeads& heads = request.heads;
  auto& methods = result.methods;
  methods.insert(methods.end(), runs.runs.begin(), runs.runs.end());
  if (request.ensemble) methods.push_back(runs.ensemble);
  methods.insert(methods.end(), runs.treeHeads.begin(), runs.treeHeads.end());
  methods.insert(methods.end(), runs.boostedHeads.begin(), runs.boostedHeads.end());
  if (request.ensemble && heads.boosted) methods.push_back(runs.boostedEnsemble);
  methods.insert(methods.end(), runs.boostedCountHeads.begin(), runs.boostedCountHeads.end());
  if (request.ensemble && heads.boostedTokenCounts) methods.push_back(runs.boostedCountEnsemble);
  result.context.folds = runs.folds;
  result.context.settings.push_back("BLAS: " + model::loadedBlas().description);
  result.context.settings.push_back(
      deeptuneSettings(deeptune, runs, request.workers, corpusExcluded));
  if (deeptune.keepStates) result.context.settings.push_back(headSettings(heads));
}

}  // namespace

void checkDevmapEvaluationRequest(const DevmapEvaluationRequest& request) {
  const bool startsFromModel = !request.fromPath.empty();
  const model::DeepTuneMethodOptions& deeptune = request.deeptune;
  if (request.workers < 1 || deeptune.train.epochs < 1 || request.seeds < 1 ||
      request.seeds > 100) {
    throw TrainingError("evaluate: --workers and --epochs must be positive, --seeds 1 to 100");
  }
  if (!(request.heads.countsColumnSample > 0 && request.heads.countsColumnSample <= 1)) {
    throw TrainingError("evaluate: --counts-colsample is a share in (0, 1]");
  }
  if (deeptune.auxScale != "raw" && deeptune.auxScale != "log2") {
    throw TrainingError("evaluate: --aux-scale is raw or log2, not '" + deeptune.auxScale + "'");
  }
  if (deeptune.pooling != "last" && deeptune.pooling != "mean") {
    throw TrainingError("evaluate: --pooling is last or mean, not '" + deeptune.pooling + "'");
  }
  if (deeptune.pretrainEpochs < 0 || deeptune.pretrainEpochs > 1000) {
    throw TrainingError("evaluate: --pretrain-epochs is 0 to 1000");
  }
  if (!(deeptune.earlyStopping >= 0 && deeptune.earlyStopping < 1)) {
    throw TrainingError("evaluate: --early-stopping is a fraction from 0 to below 1");
  }
  if (request.ensemble && request.seeds < 2) {
    throw TrainingError("evaluate: --ensemble needs --seeds 2 or more");
  }
  if (request.protocol.subset.kernels < 0) {
    throw TrainingError("evaluate: --train-kernels is 0 or more");
  }
  if (deeptune.train.frozenEpochs < -1 || (deeptune.train.frozenEpochs != 0 && !startsFromModel)) {
    throw TrainingError("evaluate: --freeze-epochs is -1 or more, with --from");
  }
}

void addPretrainCorpus(DevmapEvaluationRequest& request, const std::string& folder) {
  if (request.deeptune.pretrainEpochs == 0) {
    throw TrainingError("evaluate: --pretrain-corpus needs --pretrain-epochs");
  }
  try {
    request.deeptune.pretrainSources = data::readSourceFolder(folder, ".cl");
  } catch (const data::DataError& e) {
    throw TrainingError("evaluate: --pretrain-corpus " + std::string(e.what()));
  }
}

namespace {

/// A method that learns without LibTorch: a reference, source-boosted or what ships.
data::DevmapPredictor predictorOf(const std::string& method,
                                  const DevmapEvaluationRequest& request) {
  if (method == "source-boosted")
    return sourceBoostedPredictor(request.rows, request.sourceBoosted);
  if (method == "shipped") return shippedDevmapPredictor(request.rows);
  return referencePredictor(method, request.rows);
}

/// The settings line of the boosted-tree predictors among `methods`, or "".
std::string sourceBoostedSettings(const DevmapEvaluationRequest& request) {
  std::string line;
  const auto has = [&request](const char* name) {
    return std::find(request.methods.begin(), request.methods.end(), name) != request.methods.end();
  };
  const auto describe = [](const SourceBoostedOptions& options) {
    return "features " + model::sourceFeatureViewsName(options.views) + ", trees " +
           treeSettingsText(options);
  };
  if (has("source-boosted")) line += "source-boosted: " + describe(request.sourceBoosted) + "; ";
  if (has("shipped")) {
    const TrainRequest defaults;  // (a named value: GCC 12 warns of a temporary's string here)
    line += "shipped (train's default, " + defaultMethod("devmap") +
            "): " + describe(defaults.sourceBoosted) + "; ";
  }
  return line.empty() ? line : line.substr(0, line.size() - 2);
}

/// request.validation: every method's validation scores, written to validation.csv.
std::vector<ValidationScore> validateMethods(const DevmapEvaluationRequest& request) {
  std::vector<std::pair<std::string, data::DevmapPredictor>> methods;
  for (const std::string& method : request.methods) {
    if (method == "deeptune") {
      throw TrainingError(
          "evaluate: --validation scores the methods without a network, not "
          "deeptune");
    }
    methods.emplace_back(method, predictorOf(method, request));
  }
  std::vector<ValidationScore> scores = validationScores(
      request.rows, request.protocol, methods, request.deeptune.train.seed, request.workers);
  std::string csv = data::csvRow({"method", "accuracy", "suite_mean", "predictions", "ece"});
  for (const ValidationScore& score : scores) {
    csv += data::csvRow(
        {score.method, evaluation::formatNumber("%.4f", 100 * score.accuracy),
         evaluation::formatNumber("%.4f", 100 * score.suiteMean), std::to_string(score.predictions),
         score.calibrationError >= 0 ? evaluation::formatNumber("%.6f", score.calibrationError)
                                     : ""});
  }
  data::writeFileAtomically(request.reportDir + "/validation.csv", csv);
  return scores;
}

}  // namespace

DevmapEvaluation evaluateDevmap(const DevmapEvaluationRequest& request,
                                const DevmapEvaluationProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  model::DeepTuneMethodOptions deeptune = request.deeptune;
  const FromModel from = startFrom(request.fromPath, deeptune);
  // The protocol's leakage rule, unless DeepTune starts from a model (its vocabulary is fixed).
  deeptune.vocabularyPerFold = deeptune.startFrom.empty() && request.protocol.vocabularyPerFold;
  std::vector<std::string> dataDevices;
  for (const data::MeasuredDevice& device : request.devices) dataDevices.push_back(device.name);
  deeptune.startWhole =
      !deeptune.startFrom.empty() && !from.languageModel && from.devices == dataDevices;
  deeptune.keepStates =
      request.heads.tree || request.heads.boosted || request.heads.boostedTokenCounts;
  deeptune.keepTokenCounts = request.heads.boostedTokenCounts;
  std::vector<std::string> evaluated;
  for (const data::DevmapRow& row : request.rows) evaluated.push_back(row.src);
  size_t corpusExcluded = 0;
  deeptune.pretrainSources =
      evaluation::pretrainingSources(deeptune.pretrainSources, evaluated, corpusExcluded);

  evaluation::prepareReportFolder(request.reportDir);  // before hours of training
  DevmapEvaluation result;
  result.context.protocol = request.protocol.description;
  result.context.command = request.command;
  result.context.settings = commonSettings(request, deeptune);
  if (const std::string boosted = sourceBoostedSettings(request); !boosted.empty()) {
    result.context.settings.push_back(boosted);
  }
  if (request.validation) {
    result.validation = validateMethods(request);
    return result;
  }
  for (const std::string& method : request.methods) {
    if (method == "deeptune") {
      runDeepTune(request, deeptune, from, corpusExcluded, progress, result);
    } else {
      result.methods.push_back(evaluation::crossValidateMethod(
          method, request.rows, request.protocol, predictorOf(method, request)));
    }
    if (progress.methodDone) progress.methodDone(method);
  }
  result.context.novelty = rowNovelty(request.rows, request.protocol.foldOfRow, request.workers);
  result.context.settings.push_back("wall time: " + data::formatDuration(secondsSince(started)));
  evaluation::writeDevmapReport(request.reportDir, request.platform, request.rows,
                                request.protocol.foldOfRow, result.methods, result.context);
  return result;
}

}  // namespace deeptune::training
