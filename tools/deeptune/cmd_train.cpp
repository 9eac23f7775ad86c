// deeptune train: trains the DeepTune device-mapping model on a labelled CSV and saves it.
#include <algorithm>
#include <cstdio>
#include <optional>

#include "data/datasets.hpp"
#include "data/file_io.hpp"
#include "evaluation/boosted_trees.hpp"
#include "model/coarsening_data.hpp"
#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/devmap_input.hpp"
#include "tools/deeptune/progress.hpp"
#include "tools/deeptune/train_options.hpp"

namespace deeptune::cli {

int runTrain(const Args& args) {
  po::options_description options("train options");
  std::string task, dataPath, output, vocabPath, platform, transferFrom, fromModel;
  model::TrainOptions train;
  int maxLength = 1024;
  int networks = 1;
  std::string batching, lstm, auxScale, pooling;
  // clang-format off
  options.add_options()
      ("task", po::value(&task)->default_value("devmap"), "task: devmap or coarsening")
      ("data", po::value(&dataPath)->required(),
       "labelled CSV (devmap: e.g. cgo17-amd.csv, or a CSV `deeptune measure` wrote on two "
       "devices; coarsening: e.g. pact-2014-runtimes.csv)")
      ("platform", po::value(&platform),
       "coarsening: the device whose runtimes label the kernels (e.g. Tahiti)")
      ("transfer-from", po::value(&transferFrom),
       "start from this model's embedding and LSTM layers (transfer learning; its vocabulary "
       "is used)")
      ("from", po::value(&fromModel),
       "devmap: fine-tune this model (a file, or amd / nvidia for a bundled one): its "
       "vocabulary, sizes and weights; its output layers start afresh when its two devices are "
       "not the data's")
      ("freeze-epochs", po::value(&train.frozenEpochs)->default_value(0),
       "with --from or --transfer-from: keep the embedding and LSTM fixed for the first N "
       "epochs (-1: throughout)")
      ("output,o", po::value(&output)->required(), "model file to write")
      ("vocab", po::value(&vocabPath), "vocabulary JSON (default: derived from the data's src)")
      ("epochs", po::value(&train.epochs)->default_value(50), "training epochs")
      ("batch-size", po::value(&train.batchSize)->default_value(64), "rows per batch")
      ("batching", po::value(&batching)->default_value("rows"),
       "rows (shuffled rows, like the paper), random (shuffled whole sources) or length "
       "(whole sources of similar lengths, fastest)")
      ("lstm", po::value(&lstm)->default_value("fast"), kLstmHelp)
      ("threads", po::value(&train.lstmThreads)->default_value(model::usableHardwareThreads()),
       "threads of the fast LSTM (default: this machine's; the model does not depend on it)")
      ("seed", po::value(&train.seed)->default_value(204), "random seed")
      ("max-length", po::value(&maxLength)->default_value(1024), "keep the last N tokens")
      ("paper-padding", "pre-pad every sequence to --max-length (the paper's Keras input)")
      ("aux-scale", po::value(&auxScale)->default_value("raw"),
       "devmap: how the model reads transfer and wgsize: raw (the paper's) or log2")
      ("pooling", po::value(&pooling)->default_value("last"),
       "what the heads read of the LSTM: its state at the last token (the paper's) or the mean "
       "over every token")
      ("networks", po::value(&networks)->default_value(1),
       "train this many networks (seeds SEED, SEED+1000, ...) into one model file whose "
       "prediction is their mean probability (an ensemble)")
      ("boosted-head", "devmap: each network predicts through boosted trees (XGBoost, 50 rounds, "
       "depth 6) fitted on its pooled LSTM states and log2 transfer, wgsize of the training rows")
      ("boosted-head-counts", "devmap: the same, with each row's token counts beside the "
       "states");
  // clang-format on
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune train --task devmap --data CSV -o MODEL [options]\n"
                    "       deeptune train --task coarsening --data CSV --platform GPU -o MODEL\n"
                    "                      [--transfer-from DEVMAP.model] [options]\n\n"
                    "Trains the DeepTune model on every row of CSV (devmap) or on every kernel of\n"
                    "CSV, labelled by its fastest factor on GPU (coarsening), and writes a model\n"
                    "file (which must not be one of the input files).",
                    options, {}, vm)) {
    return kExitOk;
  }
  if (task != "devmap" && task != "coarsening") {
    throw UsageError("train: unknown --task '" + task + "' (devmap or coarsening)");
  }
  if (auxScale != "raw" && (auxScale != "log2" || task != "devmap")) {
    throw UsageError("train: --aux-scale is raw or log2 (devmap only), not '" + auxScale + "'");
  }
  if (pooling != "last" && pooling != "mean") {
    throw UsageError("train: --pooling is last or mean, not '" + pooling + "'");
  }
  const bool headCounts = vm.count("boosted-head-counts") > 0;
  const bool boostedHead = vm.count("boosted-head") > 0 || headCounts;
  if (boostedHead && task != "devmap") throw UsageError("train: --boosted-head is for devmap");
  if (networks < 1 || networks > 64) throw UsageError("train: --networks must be 1 to 64");
  if (train.epochs < 1 || train.batchSize < 1 || maxLength < 1) {
    throw UsageError("train: --epochs, --batch-size and --max-length must be positive");
  }
  if (train.lstmThreads < 1 || train.lstmThreads > 256) {
    throw UsageError("train: --threads must be 1 to 256");
  }
  if (task == "coarsening" && platform.empty()) {
    throw UsageError("train: --task coarsening needs --platform (a device of the data)");
  }
  if (task == "devmap" && !platform.empty()) {
    throw UsageError("train: --platform is for --task coarsening");
  }
  if (!transferFrom.empty() && !vocabPath.empty()) {
    throw UsageError("train: --transfer-from uses the source model's vocabulary: drop --vocab");
  }
  std::optional<StartingModel> start;
  if (!fromModel.empty()) {
    if (task != "devmap")
      throw UsageError("train: --from is for devmap (coarsening: --transfer-from)");
    if (!transferFrom.empty() || !vocabPath.empty()) {
      throw UsageError(
          "train: --from starts from the model's vocabulary and weights: drop "
          "--transfer-from and --vocab");
    }
    start.emplace(loadStartingModel(fromModel, vm, "train"));
    fromModel = start->path;
  }
  if (train.frozenEpochs < -1 ||
      (train.frozenEpochs != 0 && fromModel.empty() && transferFrom.empty())) {
    throw UsageError("train: --freeze-epochs is -1 or more, with --from or --transfer-from");
  }
  train.batching = model::parseBatching(batching);
  train.lstm = model::parseLstm(lstm);
  data::checkOutputNotInput(output, {dataPath, vocabPath, transferFrom, fromModel},
                            data::OutputKind::kFile);
  data::checkOutputPath(output);  // before the training, not after it
  const std::string sourcePath = fromModel.empty() ? transferFrom : fromModel;
  std::optional<model::DeepTuneModel> source;
  if (start) {
    source.emplace(std::move(start->model));
    maxLength = source->info().maxLength;
    auxScale = source->info().auxScale;
    pooling = source->info().pooling;
  } else if (!transferFrom.empty()) {
    source.emplace(model::DeepTuneModel::load(transferFrom));
  }

  // The data: rows (devmap) or kernels labelled on one device (coarsening).
  std::vector<model::Example> examples;
  std::string fingerprint;
  std::vector<data::DevmapRow> devmapRows;
  std::vector<data::MeasuredDevice> devices;  // a measure CSV's (empty: the paper's CPU/GPU)
  std::vector<model::CoarseningKernel> kernels;
  if (task == "devmap") {
    DevmapInput input = readDevmapInput(dataPath);
    devmapRows = std::move(input.rows);
    devices = std::move(input.devices);
    fingerprint = model::devmapFingerprint(devmapRows);
  } else {
    const auto rows = data::readCoarseningRuntimesCsv(dataPath);
    const std::vector<std::string> devices = model::coarseningDevices(rows);
    if (std::find(devices.begin(), devices.end(), platform) == devices.end()) {
      std::string list;
      for (const std::string& d : devices) list += (list.empty() ? "" : ", ") + d;
      throw UsageError("train: no runtimes of '" + platform + "' in " + dataPath +
                       " (devices: " + list + ")");
    }
    kernels = model::coarseningKernels(rows, platform);
    fingerprint = model::coarseningFingerprint(kernels);
  }
  const tokenizer::Vocabulary vocabulary =
      source               ? tokenizer::Vocabulary(source->info().vocabulary, sourcePath)
      : !vocabPath.empty() ? tokenizer::Vocabulary::load(vocabPath)
      : task == "devmap"   ? model::devmapVocabulary(devmapRows, dataPath)
                           : model::coarseningVocabulary(kernels, dataPath);
  const bool paperPadding =
      source && !fromModel.empty() ? source->info().paperPadding : vm.count("paper-padding") > 0;
  model::ModelInfo info = task == "devmap"
                              ? model::devmapModelInfo(vocabulary, maxLength, paperPadding)
                              : model::coarseningModelInfo(vocabulary, maxLength);
  info.pooling = pooling;
  for (const data::MeasuredDevice& device : devices) {
    info.deviceNames.push_back(device.name);
    info.deviceTypes.push_back(device.type);
  }
  // Fine-tuning keeps the whole network when its labels mean the same devices; otherwise (and
  // for --transfer-from) the language model alone is copied into a fresh network.
  const bool wholeNetwork = !fromModel.empty() && source->info().deviceNames == info.deviceNames;
  const std::string transferred =
      !sourcePath.empty() ? sourcePath + " (" + source->info().task + " model, data " +
                                source->info().dataFingerprint + "; " +
                                (wholeNetwork ? "fine-tuned whole" : "language model copied") + ")"
                          : "";
  const auto startingNetwork = [&](const model::ModelInfo& shape, uint64_t seed) {
    if (wholeNetwork) {
      model::DeepTuneModel whole = model::DeepTuneModel::load(sourcePath);  // its first network
      whole.info() = shape;
      return whole;
    }
    model::DeepTuneModel fresh(shape, seed);
    if (source) fresh.transferLanguageModel(*source);
    return fresh;
  };
  info.auxScale = auxScale;
  model::DeepTuneModel network = startingNetwork(info, train.seed);
  network.info().transferredFrom = transferred;
  examples = task == "devmap" ? model::devmapExamples(devmapRows, vocabulary, maxLength)
                              : model::coarseningExamples(kernels, vocabulary, maxLength);
  network.info().dataFingerprint = fingerprint;
  network.info().trainingRows = static_cast<int>(examples.size());
  network.info().trainingCommand = commandLine("train", args);
  const model::ModelInfo network0Info =
      network.info();  // the networks after the first start as it did

  model::setComputeThreads(1);  // as evaluate: the result does not depend on the core count
  // (the fast LSTM's --threads do not change it either)
  ProgressPrinter printer;
  std::vector<model::DeepTuneModel> trained;
  std::vector<std::optional<model::BoostedTreeHead>> heads;
  std::string results;
  for (int n = 0; n < networks; ++n) {
    model::TrainOptions options = train;
    options.seed = train.seed + 1000 * static_cast<uint64_t>(n);
    model::DeepTuneModel member =
        n == 0 ? std::move(network) : startingNetwork(network0Info, options.seed);
    const std::string which =
        networks > 1 ? "network " + std::to_string(n + 1) + "/" + std::to_string(networks) + "  "
                     : "";
    const model::TrainingSummary summary =
        member.train(examples, options, [&](const model::EpochProgress& p) {
          char line[200];
          std::snprintf(
              line, sizeof line, "%sepoch %d/%d  loss %.4f  accuracy %.3f  %.1fs  ETA %s",
              which.c_str(), p.epoch, p.epochs, p.loss, p.accuracy, p.seconds,
              formatDuration(p.seconds * ((p.epochs - p.epoch) + (networks - 1 - n) * p.epochs))
                  .c_str());
          printer.update(line, p.epoch == p.epochs && n == networks - 1);
        });
    if (summary.collapsed()) {
      char warning[200];
      std::snprintf(
          warning, sizeof warning,
          "warning: %straining collapsed: accuracy ended %.1f points below its best epoch",
          which.c_str(), 100 * (summary.bestAccuracy - summary.finalAccuracy));
      printer.update(warning, true);
    }
    char result[160];
    std::snprintf(result, sizeof result, "%s%.1f%% (best %.1f%% at epoch %d)",
                  results.empty() ? "" : ", ", 100 * summary.finalAccuracy,
                  100 * summary.bestAccuracy, summary.bestEpoch);
    results += result;
    if (boostedHead) {
      const std::vector<std::vector<float>> states = member.languageModelStates(examples);
      std::vector<std::vector<float>> features;
      std::vector<int> labels;
      model::BoostedTreeHead inputs;  // what the head will read
      inputs.tokenCounts = headCounts;
      for (size_t i = 0; i < examples.size(); ++i) {
        features.push_back(model::headFeatures(
            inputs, states[i], examples[i].tokens, member.info().vocabulary.size(),
            {devmapRows[i].transfer, static_cast<double>(devmapRows[i].wgsize)}));
        labels.push_back(examples[i].label);
      }
      evaluation::BoostedTreeOptions treeOptions;
      treeOptions.seed = options.seed;
      heads.push_back(evaluation::fitBoostedTreeHead(features, labels, treeOptions));
      heads.back()->tokenCounts = headCounts;
    }
    trained.push_back(std::move(member));
  }
  if (networks == 1 && !boostedHead) {
    trained.front().save(output);
  } else {
    std::vector<const model::DeepTuneModel*> members;
    for (const model::DeepTuneModel& member : trained) members.push_back(&member);
    model::DeepTuneModel::saveEnsemble(output, members, heads);
  }
  const std::string what = networks > 1 ? std::to_string(networks) + " networks " : "";
  std::printf("trained %son %zu %s in %s: training accuracy %s%s; wrote %s\n", what.c_str(),
              examples.size(), task == "devmap" ? "rows" : "kernels",
              formatDuration(printer.elapsed()).c_str(), results.c_str(),
              boostedHead ? "; boosted-tree heads fitted" : "", output.c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
