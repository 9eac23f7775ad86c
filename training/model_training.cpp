// Training a model file, one call per task: the starting network, the ensemble's seeds, the
// boosted-tree heads.
#include "training/model_training.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "baselines/fixed_factor.hpp"
#include "data/duration_text.hpp"
#include "model/boosted_trees.hpp"
#include "model/coarsening_data.hpp"
#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"
#include "model/inference_model.hpp"
#include "training/training_error.hpp"

namespace deeptune::training {
namespace {

/// The model the networks start from, loaded: the --from model to fine-tune or the
/// --transfer-from model whose language model is copied (none: from scratch).
struct Start {
  std::optional<StartingModel> model;
  bool fineTune = false;
};

Start startOf(const TrainRequest& request) {
  Start start;
  if (!request.fromPath.empty()) {
    try {
      start.model.emplace(loadDevmapStartingModel(request.fromPath));
    } catch (const TrainingError& e) {
      throw TrainingError("train: " + std::string(e.what()));
    }
    // A pretrained language model lends its embedding and LSTM, as --transfer-from does.
    start.fineTune = start.model->model.info().method != "language-model";
  } else if (!request.transferPath.empty()) {
    start.model.emplace(
        StartingModel{request.transferPath, model::DeepTuneModel::load(request.transferPath)});
  }
  return start;
}

/// The network every member of the ensemble starts as: the model fine-tuned whole when its
/// labels mean the same devices; otherwise (and for a transfer) a fresh network with the starting
/// model's language model copied in, or a fresh one.
class StartingNetwork {
 public:
  StartingNetwork(const Start& start, const model::ModelInfo& shape)
      : start_(start),
        whole_(start.fineTune && start.model->model.info().deviceNames == shape.deviceNames) {}

  bool whole() const { return whole_; }

  model::DeepTuneModel operator()(const model::ModelInfo& shape, uint64_t seed) const {
    if (whole_) {
      model::DeepTuneModel whole = model::DeepTuneModel::load(start_.model->path);
      whole.info() = shape;
      return whole;
    }
    model::DeepTuneModel fresh(shape, seed);
    if (start_.model) fresh.transferLanguageModel(start_.model->model);
    return fresh;
  }

 private:
  const Start& start_;
  bool whole_;
};

/// Records the measured devices the labels name (a measure CSV's; none for the paper's data).
void nameDevices(model::ModelInfo& info, const std::vector<data::MeasuredDevice>& devices) {
  for (const data::MeasuredDevice& device : devices) {
    info.deviceNames.push_back(device.name);
    info.deviceTypes.push_back(device.type);
  }
}

/// The model's metadata: its task, vocabulary, input shape and the devices its labels name.
model::ModelInfo modelInfo(const TrainRequest& request, const Start& start,
                           const tokenizer::Vocabulary& vocabulary) {
  const model::ModelInfo* from = start.fineTune ? &start.model->model.info() : nullptr;
  const int maxLength = from ? from->maxLength : request.maxLength;
  const bool paperPadding = from ? from->paperPadding : request.paperPadding;
  model::ModelInfo info = request.task == "devmap"
                              ? model::devmapModelInfo(vocabulary, maxLength, paperPadding)
                              : model::coarseningModelInfo(vocabulary, maxLength);
  info.pooling = from ? from->pooling : request.pooling;
  nameDevices(info, request.devices);
  info.auxScale = from ? from->auxScale : request.auxScale;
  if (start.model) info.lstmSize = start.model->model.info().lstmSize;  // its LSTM is copied
  return info;
}

tokenizer::Vocabulary vocabularyOf(const TrainRequest& request, const Start& start) {
  if (start.model)
    return tokenizer::Vocabulary(start.model->model.info().vocabulary, start.model->path);
  if (!request.vocabularyPath.empty()) return tokenizer::Vocabulary::load(request.vocabularyPath);
  return request.task == "devmap" ? model::devmapVocabulary(request.devmapRows, request.dataName)
                                  : model::coarseningVocabulary(request.kernels, request.dataName);
}

/// Boosted trees on `network`'s pooled states of the training rows (and their token counts with
/// `tokenCounts`) and log2 launch inputs.
model::BoostedTreeHead fitHead(const model::DeepTuneModel& network,
                               const std::vector<model::Example>& examples,
                               const std::vector<data::DevmapRow>& rows, bool tokenCounts,
                               uint64_t seed) {
  const std::vector<std::vector<float>> states = network.languageModelStates(examples);
  std::vector<std::vector<float>> features;
  std::vector<int> labels;
  model::BoostedTreeHead inputs;  // what the head will read
  inputs.tokenCounts = tokenCounts;
  for (size_t i = 0; i < examples.size(); ++i) {
    features.push_back(
        model::headFeatures(inputs, states[i], examples[i].tokens, network.info().vocabulary.size(),
                            {rows[i].transfer, static_cast<double>(rows[i].wgsize)}));
    labels.push_back(examples[i].label);
  }
  model::BoostedTreeOptions treeOptions;
  treeOptions.seed = seed;
  model::BoostedTreeHead head = model::fitBoostedTreeHead(features, labels, treeOptions);
  head.tokenCounts = tokenCounts;
  return head;
}

}  // namespace

std::string defaultMethod(const std::string& task) {
  return task == "coarsening" ? "fixed-factor" : "source-boosted";
}

const std::vector<std::string>& trainMethods(const std::string& task) {
  static const std::vector<std::string> devmap = {"source-boosted", "token-boosted", "deeptune"};
  static const std::vector<std::string> coarsening = {"fixed-factor", "deeptune"};
  return task == "coarsening" ? coarsening : devmap;
}

namespace {

/// The request's method: its own; else deeptune when it starts from a model (only a network
/// starts from one), else the task's default.
std::string methodOf(const TrainRequest& request) {
  if (!request.method.empty()) return request.method;
  const bool startsFromModel = !request.fromPath.empty() || !request.transferPath.empty();
  return startsFromModel ? "deeptune" : defaultMethod(request.task);
}

/// Throws TrainingError when the request sets what only DeepTune's networks read.
void checkNetworkOptionsUnused(const TrainRequest& request, const std::string& method) {
  const TrainRequest plain;
  if (!request.fromPath.empty() || !request.transferPath.empty() ||
      request.networks != plain.networks || request.boostedHead || request.boostedHeadCounts ||
      request.auxScale != plain.auxScale || request.pooling != plain.pooling ||
      request.paperPadding || request.train.frozenEpochs != 0 ||
      request.train.epochs != plain.train.epochs ||
      request.train.batchSize != plain.train.batchSize) {
    throw TrainingError("train: --method " + method +
                        " trains no network: drop --from, --transfer-from, --networks, "
                        "--boosted-head, --aux-scale, --pooling, --paper-padding, "
                        "--freeze-epochs, --epochs, --batch-size (or use --method deeptune)");
  }
}

}  // namespace

void checkTrainRequest(const TrainRequest& request) {
  const std::string& task = request.task;
  if (task != "devmap" && task != "coarsening") {
    throw TrainingError("train: unknown --task '" + task + "' (devmap or coarsening)");
  }
  const std::string method = methodOf(request);
  const auto& known = trainMethods(task);
  if (std::find(known.begin(), known.end(), method) == known.end()) {
    std::string list;
    for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
    throw TrainingError("train: unknown --method '" + method + "' for " + task + " (" + list + ")");
  }
  if (method != "deeptune") checkNetworkOptionsUnused(request, method);
  if (request.auxScale != "raw" && (request.auxScale != "log2" || task != "devmap")) {
    throw TrainingError("train: --aux-scale is raw or log2 (devmap only), not '" +
                        request.auxScale + "'");
  }
  if (request.pooling != "last" && request.pooling != "mean") {
    throw TrainingError("train: --pooling is last or mean, not '" + request.pooling + "'");
  }
  if ((request.boostedHead || request.boostedHeadCounts) && task != "devmap") {
    throw TrainingError("train: --boosted-head is for devmap");
  }
  if (request.networks < 1 || request.networks > 64) {
    throw TrainingError("train: --networks must be 1 to 64");
  }
  if (request.train.epochs < 1 || request.train.batchSize < 1 || request.maxLength < 1) {
    throw TrainingError("train: --epochs, --batch-size and --max-length must be positive");
  }
  if (request.train.lstmThreads < 1 || request.train.lstmThreads > 256) {
    throw TrainingError("train: --threads must be 1 to 256");
  }
  if (task == "coarsening" && request.platform.empty()) {
    throw TrainingError("train: --task coarsening needs --platform (a device of the data)");
  }
  if (task == "devmap" && !request.platform.empty()) {
    throw TrainingError("train: --platform is for --task coarsening");
  }
  if (!request.transferPath.empty() && !request.vocabularyPath.empty()) {
    throw TrainingError("train: --transfer-from uses the source model's vocabulary: drop --vocab");
  }
  if (!request.fromPath.empty() && task != "devmap") {
    throw TrainingError("train: --from is for devmap (coarsening: --transfer-from)");
  }
  if (!request.fromPath.empty() &&
      (!request.transferPath.empty() || !request.vocabularyPath.empty())) {
    throw TrainingError(
        "train: --from starts from the model's vocabulary and weights: drop --transfer-from and "
        "--vocab");
  }
  const int frozen = request.train.frozenEpochs;
  if (frozen < -1 || (frozen != 0 && request.fromPath.empty() && request.transferPath.empty())) {
    throw TrainingError("train: --freeze-epochs is -1 or more, with --from or --transfer-from");
  }
}

std::vector<data::CoarseningKernel> coarseningTrainingKernels(const std::string& dataPath,
                                                              const std::string& device) {
  const auto rows = data::readCoarseningRuntimesCsv(dataPath);
  const std::vector<std::string> devices = data::coarseningDevices(rows);
  if (std::find(devices.begin(), devices.end(), device) == devices.end()) {
    std::string list;
    for (const std::string& d : devices) list += (list.empty() ? "" : ", ") + d;
    throw TrainingError("train: no runtimes of '" + device + "' in " + dataPath +
                        " (devices: " + list + ")");
  }
  return data::coarseningKernels(rows, device);
}

StartingModel loadDevmapStartingModel(const std::string& path) {
  StartingModel start{path, model::DeepTuneModel::load(path)};
  if (start.model.info().task != "devmap") {
    throw TrainingError("--from needs a devmap model: " + path);
  }
  return start;
}

void TrainedModel::save(const std::string& path) const {
  if (method != "deeptune") {
    model::savePredictorFile(path, predictorInfo, forest);
    return;
  }
  const bool anyHead = !heads.empty();
  if (networks.size() == 1 && !anyHead) {
    networks.front().save(path);
    return;
  }
  std::vector<const model::DeepTuneModel*> members;
  for (const model::DeepTuneModel& member : networks) members.push_back(&member);
  model::DeepTuneModel::saveEnsemble(path, members, heads);
}

namespace {

/// "network 2/3  " for an ensemble, "" for one network.
std::string networkPrefix(int network, int networks) {
  return networks > 1
             ? "network " + std::to_string(network + 1) + "/" + std::to_string(networks) + "  "
             : std::string();
}

}  // namespace

std::string trainingEpochLine(int network, int networks, const model::EpochProgress& p) {
  const double left = p.seconds * ((p.epochs - p.epoch) + (networks - 1 - network) * p.epochs);
  char line[200];
  std::snprintf(line, sizeof line, "%sepoch %d/%d  loss %.4f  accuracy %.3f  %.1fs  ETA %s",
                networkPrefix(network, networks).c_str(), p.epoch, p.epochs, p.loss, p.accuracy,
                p.seconds, data::formatDuration(left).c_str());
  return line;
}

std::string collapseWarning(int network, int networks, const model::TrainingSummary& summary) {
  if (!summary.collapsed()) return "";
  char warning[200];
  std::snprintf(warning, sizeof warning,
                "warning: %straining collapsed: accuracy ended %.1f points below its best epoch",
                networkPrefix(network, networks).c_str(),
                100 * (summary.bestAccuracy - summary.finalAccuracy));
  return warning;
}

std::string TrainedModel::accuracySummary() const {
  std::string results;
  for (const model::TrainingSummary& summary : summaries) {
    char result[160];
    std::snprintf(result, sizeof result, "%s%.1f%% (best %.1f%% at epoch %d)",
                  results.empty() ? "" : ", ", 100 * summary.finalAccuracy,
                  100 * summary.bestAccuracy, summary.bestEpoch);
    results += result;
  }
  return results;
}

namespace {

/// A source-boosted (or token-boosted) model of every row.
TrainedModel trainSourceBoosted(const TrainRequest& request, const std::string& method) {
  const tokenizer::Vocabulary vocabulary =
      request.vocabularyPath.empty() ? model::devmapVocabulary(request.devmapRows, request.dataName)
                                     : tokenizer::Vocabulary::load(request.vocabularyPath);
  const SourceBoostedOptions options =
      method == "token-boosted" ? tokenBoostedOptions() : request.sourceBoosted;
  std::vector<size_t> all(request.devmapRows.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  SourceBoostedModel fitted = fitSourceBoosted(request.devmapRows, all, vocabulary, options);
  TrainedModel trained;
  trained.method = fitted.info.method;
  trained.predictorInfo = std::move(fitted.info);
  trained.forest = std::move(fitted.forest);
  trained.examples = all.size();
  nameDevices(trained.predictorInfo, request.devices);
  trained.predictorInfo.dataFingerprint = model::devmapFingerprint(request.devmapRows);
  trained.predictorInfo.trainingCommand = request.command;
  return trained;
}

/// The one factor best on every kernel.
TrainedModel trainFixedFactor(const TrainRequest& request) {
  const tokenizer::Vocabulary vocabulary =
      request.vocabularyPath.empty()
          ? model::coarseningVocabulary(request.kernels, request.dataName)
          : tokenizer::Vocabulary::load(request.vocabularyPath);
  if (request.kernels.empty()) throw TrainingError("train: no kernel to choose a factor on");
  TrainedModel trained;
  trained.method = "fixed-factor";
  trained.predictorInfo = model::coarseningModelInfo(vocabulary, request.maxLength);
  trained.predictorInfo.method = "fixed-factor";
  const std::string factor = std::to_string(fixedFactorOf(request.kernels));
  const auto& labels = trained.predictorInfo.labels;
  trained.predictorInfo.fixedLabel =
      static_cast<int>(std::find(labels.begin(), labels.end(), factor) - labels.begin());
  trained.predictorInfo.dataFingerprint = model::coarseningFingerprint(request.kernels);
  trained.predictorInfo.trainingRows = static_cast<int>(request.kernels.size());
  trained.predictorInfo.trainingCommand = request.command;
  trained.examples = request.kernels.size();
  return trained;
}

}  // namespace

int fixedFactorOf(const std::vector<data::CoarseningKernel>& kernels) {
  return baselines::bestFixedFactor(kernels);
}

data::DevmapPredictor shippedDevmapPredictor(const std::vector<data::DevmapRow>& rows) {
  const TrainRequest defaults;
  if (defaultMethod("devmap") != "source-boosted") {
    throw TrainingError("shipped: the default devmap method has no cross-validation method");
  }
  return sourceBoostedPredictor(rows, defaults.sourceBoosted);
}

std::string TrainedModel::summaryLine(const std::string& wallTime) const {
  std::string what = method;
  if (method == "source-boosted") {
    what += " (" + predictorInfo.sourceFeatures +
            (predictorInfo.calibration.method == "none"
                 ? std::string()
                 : ", probability calibrated by " + predictorInfo.calibration.method) +
            ")";
  }
  if (method == "fixed-factor") {
    what += " (factor " + predictorInfo.labels.at(predictorInfo.fixedLabel) + ")";
  }
  if (networks.size() > 1) what += " (" + std::to_string(networks.size()) + " networks)";
  const bool coarsening = method == "fixed-factor" ||
                          (!networks.empty() && networks.front().info().task == "coarsening");
  std::string line = "trained " + what + " on " + std::to_string(examples) +
                     (coarsening ? " kernels" : " rows") + " in " + wallTime;
  if (method == "deeptune") line += ": training accuracy " + accuracySummary();
  if (!heads.empty()) line += "; boosted-tree heads fitted";
  return line;
}

TrainedModel trainModel(const TrainRequest& request, const TrainProgress& progress) {
  checkTrainRequest(request);
  const std::string method = methodOf(request);
  if (method == "source-boosted" || method == "token-boosted") {
    return trainSourceBoosted(request, method);
  }
  if (method == "fixed-factor") return trainFixedFactor(request);
  const bool devmap = request.task == "devmap";
  const std::string fingerprint = devmap ? model::devmapFingerprint(request.devmapRows)
                                         : model::coarseningFingerprint(request.kernels);
  const Start start = startOf(request);
  const tokenizer::Vocabulary vocabulary = vocabularyOf(request, start);
  const model::ModelInfo info = modelInfo(request, start, vocabulary);
  const StartingNetwork startingNetwork(start, info);
  model::DeepTuneModel network = startingNetwork(info, request.train.seed);
  if (start.model) {
    const model::ModelInfo& from = start.model->model.info();
    network.info().transferredFrom =
        start.model->path + " (" + from.task + " model, data " + from.dataFingerprint + "; " +
        (startingNetwork.whole() ? "fine-tuned whole" : "language model copied") + ")";
  }
  const std::vector<model::Example> examples =
      devmap ? model::devmapExamples(request.devmapRows, vocabulary, info.maxLength)
             : model::coarseningExamples(request.kernels, vocabulary, info.maxLength);
  network.info().dataFingerprint = fingerprint;
  network.info().trainingRows = static_cast<int>(examples.size());
  network.info().trainingCommand = request.command;
  const model::ModelInfo network0Info = network.info();  // the others start as it did

  model::setComputeThreads(1);  // the result does not depend on the core count (nor do the fast
                                // LSTM's threads change it)
  TrainedModel trained;
  trained.method = "deeptune";
  trained.examples = examples.size();
  for (int n = 0; n < request.networks; ++n) {
    model::TrainOptions options = request.train;
    options.seed = request.train.seed + 1000 * static_cast<uint64_t>(n);
    model::DeepTuneModel member =
        n == 0 ? std::move(network) : startingNetwork(network0Info, options.seed);
    trained.summaries.push_back(member.train(examples, options, [&](const model::EpochProgress& p) {
      if (progress.epoch) progress.epoch(n, p);
    }));
    if (progress.networkDone) progress.networkDone(n, trained.summaries.back());
    if (request.boostedHead || request.boostedHeadCounts) {
      trained.heads.push_back(
          fitHead(member, examples, request.devmapRows, request.boostedHeadCounts, options.seed));
    }
    trained.networks.push_back(std::move(member));
  }
  return trained;
}

}  // namespace deeptune::training
