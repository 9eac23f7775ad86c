// deeptune evaluate: cross-validates static, Grewe et al. and DeepTune on identical folds.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "data/datasets.hpp"
#include "data/file_io.hpp"
#include "evaluation/devmap_report.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/progress.hpp"
#include "tools/deeptune/train_options.hpp"
#include "tools/deeptune/training_inputs.hpp"
#include "training/devmap_evaluation.hpp"

namespace deeptune::cli {
namespace {

/// One line when a fold's model is done; a second, a warning, when its training collapsed.
std::string foldReport(const model::FoldTraining& f, int folds) {
  char line[300];
  std::snprintf(line, sizeof line,
                "%s fold %d/%d: test accuracy %.1f%% (%zu of %zu rows GPU); training accuracy "
                "%.1f%%, best %.1f%% at epoch %d",
                f.method.c_str(), f.fold + 1, folds, 100 * f.testAccuracy(), f.predictedGpu,
                f.testRows, 100 * f.training.finalAccuracy, 100 * f.training.bestAccuracy,
                f.training.bestEpoch);
  std::string report = line;
  if (f.training.collapsed()) {
    std::snprintf(line, sizeof line,
                  "\nwarning: %s fold %d collapsed: its training accuracy ended %.1f points "
                  "below its best epoch",
                  f.method.c_str(), f.fold + 1,
                  100 * (f.training.bestAccuracy - f.training.finalAccuracy));
    report += line;
  }
  return report;
}

/// Every .cl file of `folder` (regular files, sorted by name), each read within the source limit;
/// an unreadable folder or one without a .cl file is a usage error.
std::vector<std::string> readCorpus(const std::string& folder) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().extension() == ".cl" && it->is_regular_file()) files.push_back(it->path());
  }
  if (error) throw UsageError("evaluate: --pretrain-corpus " + folder + ": " + error.message());
  if (files.empty()) throw UsageError("evaluate: --pretrain-corpus " + folder + " has no .cl file");
  std::sort(files.begin(), files.end());
  std::vector<std::string> sources;
  for (const auto& file : files) {
    sources.push_back(data::readFileBytes(file.string(), data::kMaxSourceBytes));
  }
  return sources;
}

}  // namespace

int runEvaluate(const Args& args) {
  if (asksForTask(args, "coarsening")) {  // the coarsening task has its own options
    return runEvaluateCoarsening(args);
  }
  po::options_description options("evaluate options");
  std::string task, dataPath, foldsPath, methodList, reportDir, platform, protocol;
  model::DeepTuneMethodOptions deeptune;
  int workers = 2;
  int seeds = 1;
  std::string batching, lstm, pretrainCorpus, fromModel;
  evaluation::TrainingSubset subset;
  // clang-format off
  options.add_options()
      ("task", po::value(&task)->default_value("devmap"), "task: devmap")
      ("data", po::value(&dataPath)->required(), "labelled CSV (e.g. cgo17-amd.csv)")
      ("folds", po::value(&foldsPath), "folds CSV (protocol 'folds'; e.g. folds-amd.csv)")
      ("protocol", po::value(&protocol)->default_value("folds"),
       "folds (the --folds file), suite (leave one suite out), kernel (10 folds grouped by source)")
      ("methods", po::value(&methodList)->default_value("static,grewe,deeptune"),
       "comma-separated: static, grewe, deeptune, and the references hand-tree (a depth-5 tree "
       "on the static counts and log sizes) and memory (a source seen in training gets its "
       "nearest data size's label), hand-boosted (XGBoost on hand-tree's features)")
      ("report", po::value(&reportDir)->required(), "report folder to write")
      ("platform", po::value(&platform), "platform name in the report (default: from --data)")
      ("epochs", po::value(&deeptune.train.epochs)->default_value(50), "DeepTune epochs")
      ("batch-size", po::value(&deeptune.train.batchSize)->default_value(64), "rows per batch")
      ("batching", po::value(&batching)->default_value("rows"),
       "rows (shuffled rows, like the paper), random (shuffled whole sources) or length "
       "(whole sources of similar lengths, fastest)")
      ("lstm", po::value(&lstm)->default_value("fast"), kLstmHelp)
      ("seed", po::value(&deeptune.train.seed)->default_value(204),
       "seed (fold f uses seed+f; run r of --seeds adds 1000r)")
      ("seeds", po::value(&seeds)->default_value(1),
       "DeepTune runs with different seeds; the report gives their mean and spread")
      ("max-length", po::value(&deeptune.maxLength)->default_value(1024), "keep the last N tokens")
      ("paper-padding", "pre-pad every sequence to --max-length (the paper's Keras input)")
      ("aux-scale", po::value(&deeptune.auxScale)->default_value("raw"),
       "how DeepTune reads transfer and wgsize: raw (the paper's) or log2")
      ("ensemble", "with --seeds 2 or more, also report deeptune-ensemble: the runs' GPU "
       "probabilities averaged")
      ("pooling", po::value(&deeptune.pooling)->default_value("last"),
       "what DeepTune's heads read of the LSTM: its state at the last token (the paper's) or "
       "the mean over every token")
      ("early-stopping", po::value(&deeptune.earlyStopping)->default_value(0),
       "hold out this fraction of each fold's training sources and keep the epoch that scores "
       "best on them (0: off, the paper's)")
      ("pretrain-epochs", po::value(&deeptune.pretrainEpochs)->default_value(0),
       "pretrain DeepTune's LSTM as a next-token language model on each fold's training "
       "sources for this many epochs first (0: off, the paper's)")
      ("pretrain-corpus", po::value(&pretrainCorpus),
       "with --pretrain-epochs: also pretrain on every .cl file of this folder (normalized "
       "kernels, e.g. written by deeptune rewrite)")
      ("tree-head", "also report deeptune-tree: a depth-5 tree on each trained network's "
       "language-model states and log2 transfer and wgsize (no extra training)")
      ("boosted-head", "also report deeptune-boosted: XGBoost's boosted trees on the same "
       "states and log2 sizes (with --ensemble, also their probabilities averaged)")
      ("boosted-head-counts", "also report deeptune-boosted-tc: the same boosted trees with "
       "each row's token counts beside the states (with --ensemble, also averaged)")
      ("from", po::value(&fromModel),
       "fine-tune: every fold's DeepTune starts from this model (a file, or amd / nvidia for a "
       "bundled one), its vocabulary and sizes; the whole network when its devices are the "
       "data's, else its language model")
      ("freeze-epochs", po::value(&deeptune.train.frozenEpochs)->default_value(0),
       "with --from: keep the embedding and LSTM fixed for the first N epochs (-1: throughout)")
      ("train-kernels", po::value(&subset.kernels)->default_value(0),
       "learning curves: every method of a fold trains on this many of its training sources "
       "(drawn with --seed + fold; 0: all)")
      ("workers", po::value(&workers)->default_value(2), "folds trained at once");
  // clang-format on
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune evaluate --task devmap --data CSV --folds FOLDS.csv "
                    "[--methods static,grewe,deeptune] --report DIR\n\n"
                    "Cross-validates each method on the same folds and writes a report folder\n"
                    "(summary.md, CSV tables, SVG plots).",
                    options, {}, vm)) {
    return kExitOk;
  }
  if (task != "devmap") throw UsageError("evaluate: unknown --task '" + task + "'");
  if (workers < 1 || deeptune.train.epochs < 1 || seeds < 1 || seeds > 100) {
    throw UsageError("evaluate: --workers and --epochs must be positive, --seeds 1 to 100");
  }
  deeptune.paperPadding = vm.count("paper-padding") > 0;
  if (deeptune.auxScale != "raw" && deeptune.auxScale != "log2") {
    throw UsageError("evaluate: --aux-scale is raw or log2, not '" + deeptune.auxScale + "'");
  }
  if (deeptune.pooling != "last" && deeptune.pooling != "mean") {
    throw UsageError("evaluate: --pooling is last or mean, not '" + deeptune.pooling + "'");
  }
  if (deeptune.pretrainEpochs < 0 || deeptune.pretrainEpochs > 1000) {
    throw UsageError("evaluate: --pretrain-epochs is 0 to 1000");
  }
  if (!pretrainCorpus.empty()) {
    if (deeptune.pretrainEpochs == 0) {
      throw UsageError("evaluate: --pretrain-corpus needs --pretrain-epochs");
    }
    deeptune.pretrainSources = readCorpus(pretrainCorpus);
  }
  if (!(deeptune.earlyStopping >= 0 && deeptune.earlyStopping < 1)) {
    throw UsageError("evaluate: --early-stopping is a fraction from 0 to below 1");
  }
  const bool ensemble = vm.count("ensemble") > 0;
  if (ensemble && seeds < 2) throw UsageError("evaluate: --ensemble needs --seeds 2 or more");
  if (subset.kernels < 0) throw UsageError("evaluate: --train-kernels is 0 or more");
  subset.seed = deeptune.train.seed;
  if (deeptune.train.frozenEpochs < -1 || (deeptune.train.frozenEpochs != 0 && fromModel.empty())) {
    throw UsageError("evaluate: --freeze-epochs is -1 or more, with --from");
  }
  training::DevmapEvaluationRequest request;
  if (!fromModel.empty()) {
    const std::string path = startingModelPath(fromModel, vm, "evaluate");
    const training::StartingModel start = loadStartingModel(path, "evaluate");
    const model::ModelInfo& info = start.model.info();
    deeptune.startFrom = start.path;
    deeptune.maxLength = info.maxLength;
    deeptune.auxScale = info.auxScale;
    deeptune.pooling = info.pooling;
    deeptune.paperPadding = info.paperPadding;
    request.fromVocabulary.emplace(info.vocabulary, start.path);
    request.fromDevices = info.deviceNames;
  }
  request.heads.tree = vm.count("tree-head") > 0;
  request.heads.boosted = vm.count("boosted-head") > 0;
  request.heads.boostedTokenCounts = vm.count("boosted-head-counts") > 0;
  deeptune.train.batching = model::parseBatching(batching);
  deeptune.train.lstm = model::parseLstm(lstm);
  data::checkOutputNotInput(reportDir, {dataPath, foldsPath}, data::OutputKind::kFolder);
  api::DevmapInput input = readDevmapData(dataPath);
  request.protocol = evaluation::devmapProtocol(protocol, input.rows, foldsPath, deeptune.train.seed);
  request.protocol.subset = subset;
  request.rows = std::move(input.rows);
  request.devices = std::move(input.devices);
  request.methods = evaluation::selectMethods(methodList, evaluation::devmapMethods(), "devmap");
  evaluation::prepareReportFolder(reportDir);  // before hours of training
  if (platform.empty()) platform = dataPath.substr(dataPath.find_last_of('/') + 1);
  request.dataName = dataPath;
  request.deeptune = deeptune;
  request.seeds = seeds;
  request.workers = workers;
  request.ensemble = ensemble;
  request.command = commandLine("evaluate", args);
  const int folds = request.protocol.folds;

  ProgressPrinter printer;
  training::DevmapEvaluationProgress progress;
  auto done = std::make_shared<std::atomic<int>>(0);
  const int totalEpochs = folds * deeptune.train.epochs * seeds;
  progress.epoch = [&, done, totalEpochs](int run, int fold, const model::EpochProgress& p) {
    const int finished = ++*done;
    const double eta = printer.elapsed() / finished * (totalEpochs - finished);
    char validation[40] = "";
    if (p.validationAccuracy >= 0) {
      std::snprintf(validation, sizeof validation, "  validation %.3f", p.validationAccuracy);
    }
    char line[240];
    std::snprintf(line, sizeof line,
                  "deeptune run %d/%d fold %d/%d  epoch %d/%d  loss %.4f  accuracy %.3f%s  ETA %s",
                  run + 1, seeds, fold + 1, folds, p.epoch, p.epochs, p.loss, p.accuracy,
                  validation, formatDuration(eta).c_str());
    printer.update(line);
  };
  progress.fold = [&](const model::FoldTraining& f) { printer.update(foldReport(f, folds), true); };
  progress.warning = [&](const std::string& note) { printer.update("warning: " + note, true); };
  progress.methodDone = [&](const std::string& method) {
    printer.update(method + ": done after " + formatDuration(printer.elapsed()), true);
  };
  training::DevmapEvaluation result = training::evaluateDevmap(request, progress);
  result.context.settings.push_back("wall time: " + formatDuration(printer.elapsed()));
  evaluation::writeDevmapReport(reportDir, platform, request.rows, request.protocol.foldOfRow,
                                result.methods, result.context);
  std::fputs(evaluation::devmapScoreTable(platform, request.protocol.description, request.rows,
                                          request.protocol.foldOfRow, result.methods)
                 .c_str(),
             stdout);
  std::printf("report: %s/summary.md (%s)\n", reportDir.c_str(),
              formatDuration(printer.elapsed()).c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
