// deeptune evaluate --task coarsening: leave-one-kernel-out per GPU for static, fixed, Magni,
// DeepTune.
#include <algorithm>
#include <cstdio>
#include <set>

#ifdef DEEPTUNE_WITH_REWRITER
#include "api/predictor.hpp"  // the bundled model, the default source of deeptune-tl
#endif
#include "data/file_io.hpp"
#include "data/text_split.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/progress.hpp"
#include "training/coarsening_evaluation_run.hpp"

namespace deeptune::cli {

int runEvaluateCoarsening(const Args& args) {
  po::options_description options("evaluate --task coarsening options");
  std::string task, dataPath, oraclesPath, reportDir, methodList, deviceList, transferFrom, loss,
      pretrainData;
  training::CoarseningEvaluationOptions evaluation;
  int workers = 2;
  // clang-format off
  options.add_options()
      ("task", po::value(&task)->required(), "coarsening")
      ("data", po::value(&dataPath)->required(), "runtimes CSV (e.g. pact-2014-runtimes.csv)")
      ("oracles", po::value(&oraclesPath), "oracles CSV to check the runtimes' best factors against")
      ("report", po::value(&reportDir)->required(), "report folder to write")
      ("methods", po::value(&methodList)->default_value("static,fixed,magni,deeptune,deeptune-tl"),
       "comma-separated: static, fixed, magni, deeptune, deeptune-tl")
      ("devices", po::value(&deviceList), "comma-separated devices (default: every one of the data)")
      ("transfer-from", po::value(&transferFrom),
       "deeptune-tl's source model (default: the bundled AMD device-mapping model)")
      ("seeds", po::value(&evaluation.runs)->default_value(5), "runs of the learned methods")
      ("seed", po::value(&evaluation.train.seed)->default_value(204), "first seed")
      ("epochs", po::value(&evaluation.train.epochs)->default_value(50), "training epochs")
      ("max-length", po::value(&evaluation.maxLength)->default_value(1024), "keep the last N tokens")
      ("batch-size", po::value(&evaluation.train.batchSize)->default_value(64), "rows per batch")
      ("loss", po::value(&loss)->default_value("classification"),
       "classification (cross-entropy on the best factor, the paper's) or regret (the expected "
       "speedup lost against the best factor, from the measured runtimes)")
      ("shared-devices", "one network over every device (the device a one-hot input), trained "
       "on every other kernel's rows of every device")
      ("ensemble", po::value(&evaluation.ensemble)->default_value(1),
       "networks per run and held-out kernel, their probabilities averaged")
      ("fallback-folds", po::value(&evaluation.fallbackFolds)->default_value(0),
       "take the fixed factor when the ensemble's probability of its choice is below a threshold "
       "chosen by an inner cross-validation of this many folds on the training kernels (0: off)")
      ("transfer", po::value(&evaluation.transferMode)->default_value("model"),
       "deeptune-tl's encoder: model (copied from --transfer-from) or pretrained (a next-token "
       "language model per run on --pretrain-data)")
      ("pretrain-data", po::value(&pretrainData),
       "with --transfer pretrained: device-mapping CSVs (comma-separated) whose sources, less "
       "the coarsening kernels', the encoder is pretrained on")
      ("pretrain-epochs", po::value(&evaluation.pretrain.epochs)->default_value(10),
       "with --transfer pretrained: next-token epochs")
      ("freeze-epochs", po::value(&evaluation.train.frozenEpochs)->default_value(0),
       "deeptune-tl: keep the transferred encoder fixed for the first N epochs (-1: always)")
      ("workers", po::value(&workers)->default_value(2), "trainings at once");
  // clang-format on
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune evaluate --task coarsening --data RUNTIMES.csv --report DIR\n"
                    "                         [--oracles ORACLES.csv] [--methods LIST] [--devices "
                    "LIST]\n"
                    "                         [--transfer-from MODEL] [--seeds N] [--epochs E]\n\n"
                    "Leave-one-kernel-out on each device: every kernel's factor is predicted by\n"
                    "methods trained on the other kernels only (one training row per kernel).\n"
                    "Trainings are logged in DIR/trainings.partial.csv as they finish: rerun the\n"
                    "same command to resume an interrupted evaluation.",
                    options, {}, vm)) {
    return kExitOk;
  }
  if (evaluation.runs < 1 || evaluation.runs > 100 || evaluation.train.epochs < 1 || workers < 1 ||
      evaluation.maxLength < 1 || evaluation.train.batchSize < 1 || evaluation.ensemble < 1 ||
      evaluation.ensemble > 100 || evaluation.fallbackFolds < 0 || evaluation.fallbackFolds == 1 ||
      evaluation.fallbackFolds > 100 || evaluation.pretrain.epochs < 1 ||
      evaluation.pretrain.epochs > 1000 || evaluation.train.frozenEpochs < -1) {
    throw UsageError(
        "evaluate: --seeds and --ensemble 1 to 100; --fallback-folds 0 or 2 to 100; "
        "--pretrain-epochs 1 to 1000; --freeze-epochs -1 or more; --epochs, --workers, "
        "--max-length, --batch-size positive");
  }
  if (loss != "classification" && loss != "regret") {
    throw UsageError("evaluate: --loss is classification or regret, not '" + loss + "'");
  }
  evaluation.train.loss = loss == "regret" ? model::TrainOptions::Loss::kRegret
                                           : model::TrainOptions::Loss::kClassification;
  evaluation.sharedDevices = vm.count("shared-devices") != 0;
  if (evaluation.transferMode != "model" && evaluation.transferMode != "pretrained") {
    throw UsageError("evaluate: --transfer is model or pretrained, not '" +
                     evaluation.transferMode + "'");
  }
  if ((evaluation.transferMode == "pretrained") != !pretrainData.empty()) {
    throw UsageError("evaluate: --transfer pretrained and --pretrain-data go together");
  }
  evaluation.methods =
      evaluation::selectMethods(methodList, evaluation::coarseningMethods(), "coarsening");
  data::checkOutputNotInput(reportDir, {dataPath, oraclesPath, transferFrom, pretrainData},
                            data::OutputKind::kFolder);
#ifdef DEEPTUNE_WITH_REWRITER
  const bool transfer = std::find(evaluation.methods.begin(), evaluation.methods.end(),
                                  "deeptune-tl") != evaluation.methods.end();
  if (transfer && transferFrom.empty()) transferFrom = api::findBundledModel("amd");
#endif
  training::CoarseningEvaluationRequest request;
  request.dataPath = dataPath;
  request.oraclesPath = oraclesPath;
  if (!deviceList.empty()) request.devices = data::splitText(deviceList, ',');
  request.options = evaluation;
  request.transferFrom = transferFrom;
  request.pretrainData = pretrainData;
  request.reportDir = reportDir;
  request.workers = workers;
  request.command = commandLine("evaluate", args);
  ProgressPrinter printer;
  training::CoarseningEvaluationProgress progress;
  progress.prediction = [&](const evaluation::CoarseningPrediction& p, size_t done,
                            size_t total) {
    char line[200];
    std::snprintf(line, sizeof line, "%zu/%zu trainings: %s %s run %d, %s -> factor %d (%.2fx)",
                  done, total, p.device.c_str(), p.method.c_str(), p.run, p.kernel.c_str(),
                  p.factor, p.speedup);
    printer.update(line, done == total);
  };
  progress.notice = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  progress.wallTime = [&] { return formatDuration(printer.elapsed()); };
  const auto scores = training::runCoarseningEvaluation(request, progress);
  std::set<std::string> devices;
  for (const evaluation::CoarseningScores& s : scores) {
    if (s.device != "all") devices.insert(s.device);
  }
  const std::string deviceCount =
      std::to_string(devices.size()) + (devices.size() == 1 ? " device" : " devices");
  for (const evaluation::CoarseningScores& s : scores) {
    if (s.device != "all") continue;
    std::printf("%-12s mean speedup %.3fx over %s (%.1f%% of the oracle)\n", s.method.c_str(),
                s.mean(), deviceCount.c_str(), 100 * s.ofOracle());
  }
  std::printf("report: %s/summary.md\n", reportDir.c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
