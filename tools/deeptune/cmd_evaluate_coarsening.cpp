// deeptune evaluate --task coarsening: leave-one-kernel-out per GPU for static, fixed, Magni,
// DeepTune.
#include <algorithm>
#include <cstdio>

#ifdef DEEPTUNE_WITH_REWRITER
#include "api/predictor.hpp"  // the bundled model, the default source of deeptune-tl
#endif
#include "data/file_io.hpp"
#include "data/progress_printer.hpp"
#include "data/text_split.hpp"
#include "evaluation/coarsening_report.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "tools/deeptune/commands.hpp"
#include "training/coarsening_evaluation_run.hpp"

namespace deeptune::cli {
namespace {

/// The command line of evaluate --task coarsening: the library's request and the CLI's strings.
struct CoarseningArguments {
  training::CoarseningEvaluationRequest request;
  std::string task, methodList, deviceList, loss;
};

po::options_description coarseningOptions(CoarseningArguments& a) {
  po::options_description options("evaluate --task coarsening options");
  // clang-format off
  options.add_options()
      ("task", po::value(&a.task)->required(), "coarsening")
      ("data", po::value(&a.request.dataPath)->required(), "runtimes CSV (e.g. pact-2014-runtimes.csv)")
      ("oracles", po::value(&a.request.oraclesPath), "oracles CSV to check the runtimes' best factors against")
      ("report", po::value(&a.request.reportDir)->required(), "report folder to write")
      ("methods", po::value(&a.methodList)->default_value("static,fixed,magni,deeptune,deeptune-tl"),
       "comma-separated: static, fixed, shipped (what train writes by default: the fixed "
       "factor), magni, deeptune, deeptune-tl (evaluation/README.md)")
      ("devices", po::value(&a.deviceList), "comma-separated devices (default: every one of the data)")
      ("transfer-from", po::value(&a.request.transferFrom),
       "deeptune-tl's source model (default: the bundled AMD device-mapping model)")
      ("seeds", po::value(&a.request.options.runs)->default_value(5), "runs of the learned methods")
      ("seed", po::value(&a.request.options.train.seed)->default_value(204), "first seed")
      ("epochs", po::value(&a.request.options.train.epochs)->default_value(50), "training epochs")
      ("max-length", po::value(&a.request.options.maxLength)->default_value(1024), "keep the last N tokens")
      ("batch-size", po::value(&a.request.options.train.batchSize)->default_value(64), "rows per batch")
      ("loss", po::value(&a.loss)->default_value("classification"),
       "classification (cross-entropy on the best factor, the paper's) or regret (the expected "
       "speedup lost against the best factor, from the measured runtimes)")
      ("shared-devices", "one network over every device (the device a one-hot input), trained "
       "on every other kernel's rows of every device")
      ("ensemble", po::value(&a.request.options.ensemble)->default_value(1),
       "networks per run and held-out kernel, their probabilities averaged")
      ("fallback-folds", po::value(&a.request.options.fallbackFolds)->default_value(0),
       "the fixed factor below a confidence chosen on this many inner folds (0: off)")
      ("transfer", po::value(&a.request.options.transferMode)->default_value("model"),
       "deeptune-tl's encoder: model (copied from --transfer-from) or pretrained (a next-token "
       "language model per run on --pretrain-data)")
      ("pretrain-data", po::value(&a.request.pretrainData),
       "with --transfer pretrained: device-mapping CSVs whose sources pretrain the encoder")
      ("pretrain-epochs", po::value(&a.request.options.pretrain.epochs)->default_value(10),
       "with --transfer pretrained: next-token epochs")
      ("freeze-epochs", po::value(&a.request.options.train.frozenEpochs)->default_value(0),
       "deeptune-tl: keep the transferred encoder fixed for the first N epochs (-1: always)")
      ("workers", po::value(&a.request.workers)->default_value(2), "trainings at once");
  // clang-format on
  return options;
}

}  // namespace

int runEvaluateCoarsening(const Args& args) {
  CoarseningArguments a;
  training::CoarseningEvaluationRequest& request = a.request;
  training::CoarseningEvaluationOptions& evaluation = request.options;
  po::options_description options = coarseningOptions(a);
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
  training::checkCoarseningEvaluationRequest(request, a.loss);
  evaluation.train.loss = a.loss == "regret" ? model::TrainOptions::Loss::kRegret
                                             : model::TrainOptions::Loss::kClassification;
  evaluation.sharedDevices = vm.count("shared-devices") != 0;
  evaluation.methods =
      evaluation::selectMethods(a.methodList, evaluation::coarseningMethods(), "coarsening");
  data::checkOutputNotInput(
      request.reportDir,
      {request.dataPath, request.oraclesPath, request.transferFrom, request.pretrainData},
      data::OutputKind::kFolder);
#ifdef DEEPTUNE_WITH_REWRITER
  const bool transfer = std::find(evaluation.methods.begin(), evaluation.methods.end(),
                                  "deeptune-tl") != evaluation.methods.end();
  if (transfer && request.transferFrom.empty()) {  // the bundled network
    request.transferFrom = api::findBundledModel("amd-deeptune");
  }
#endif
  if (!a.deviceList.empty()) request.devices = data::splitText(a.deviceList, ',');
  request.command = commandLine("evaluate", args);
  data::ProgressPrinter printer;
  std::fputs(
      evaluation::coarseningScoreTable(
          training::runCoarseningEvaluation(request, training::printedCoarseningProgress(printer)))
          .c_str(),
      stdout);
  std::printf("report: %s/summary.md\n", request.reportDir.c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
