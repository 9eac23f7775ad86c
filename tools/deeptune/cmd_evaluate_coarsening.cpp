// deeptune evaluate --task coarsening: leave-one-kernel-out per GPU for static, fixed, Magni,
// DeepTune.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>

#ifdef DEEPTUNE_WITH_REWRITER
#include "api/predictor.hpp"  // the bundled model, the default source of deeptune-tl
#endif
#include "data/checksum.hpp"
#include "data/datasets.hpp"
#include "data/file_io.hpp"
#include "data/text_split.hpp"
#include "evaluation/coarsening_evaluation.hpp"
#include "evaluation/coarsening_report.hpp"
#include "evaluation/coarsening_training_log.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "model/coarsening_data.hpp"
#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"
#include "model/model_error.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/progress.hpp"

namespace deeptune::cli {

namespace {

/// The distinct sources of the device-mapping CSVs `paths` (comma-separated) as tokens of
/// `vocabulary`, without any source of the coarsening kernels (their labels must stay unseen;
/// an unlabelled copy of the program would be a look at it too).
std::vector<std::vector<int>> pretrainingSequences(
    const std::string& paths, const tokenizer::Vocabulary& vocabulary, int maxLength,
    const std::vector<std::vector<model::CoarseningKernel>>& kernelsByDevice, size_t& excluded) {
  std::set<std::string> coarsening, seen;
  for (const auto& kernels : kernelsByDevice) {
    for (const auto& kernel : kernels) coarsening.insert(kernel.src);
  }
  std::vector<std::vector<int>> sequences;
  excluded = 0;
  for (const std::string& path : data::splitText(paths, ',')) {
    for (const data::DevmapRow& row : data::readDevmapCsv(path)) {
      if (!seen.insert(row.src).second) continue;
      if (coarsening.count(row.src) != 0) {
        ++excluded;
        continue;
      }
      sequences.push_back(model::modelTokens(vocabulary, row.src, maxLength));
    }
  }
  return sequences;
}

}  // namespace

int runEvaluateCoarsening(const Args& args) {
  po::options_description options("evaluate --task coarsening options");
  std::string task, dataPath, oraclesPath, reportDir, methodList, deviceList, transferFrom, loss,
      pretrainData;
  evaluation::CoarseningEvaluationOptions evaluation;
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
  evaluation::prepareReportFolder(reportDir);  // before the training
  const auto rows = data::readCoarseningRuntimesCsv(dataPath);
  std::vector<std::string> devices =
      deviceList.empty() ? model::coarseningDevices(rows) : data::splitText(deviceList, ',');
  std::vector<std::vector<model::CoarseningKernel>> kernelsByDevice;
  for (const std::string& device : devices) {
    try {
      kernelsByDevice.push_back(model::coarseningKernels(rows, device));
    } catch (const model::ModelError& e) {
      throw UsageError("evaluate: " + dataPath + ": " + e.what());
    }
  }
  if (!oraclesPath.empty())
    evaluation::checkCoarseningOracles(oraclesPath, devices, kernelsByDevice);

  const bool transfer = std::find(evaluation.methods.begin(), evaluation.methods.end(),
                                  "deeptune-tl") != evaluation.methods.end();
#ifdef DEEPTUNE_WITH_REWRITER
  if (transfer && transferFrom.empty()) transferFrom = api::findBundledModel("amd");
#endif
  if (transfer && transferFrom.empty()) {
    throw UsageError("evaluate: deeptune-tl needs --transfer-from MODEL in this build");
  }
  std::optional<model::DeepTuneModel> source;
  if (transfer) source.emplace(model::DeepTuneModel::load(transferFrom));
  evaluation.transferSource = source ? &*source : nullptr;
  // Both learned methods read the same tokens: the transfer source's vocabulary when there is one.
  const tokenizer::Vocabulary vocabulary =
      source ? tokenizer::Vocabulary(source->info().vocabulary, transferFrom)
             : model::coarseningVocabulary(kernelsByDevice.front(), dataPath);

  size_t pretrainExcluded = 0;
  if (transfer && evaluation.transferMode == "pretrained") {
    evaluation.pretrainSequences = pretrainingSequences(
        pretrainData, vocabulary, evaluation.maxLength, kernelsByDevice, pretrainExcluded);
  }

  // What the trainings depend on: the data, the training settings, the transfer source.
  std::string material =
      std::to_string(evaluation.train.epochs) + ' ' + std::to_string(evaluation.train.batchSize) +
      ' ' + std::to_string(evaluation.maxLength) + ' ' + std::to_string(evaluation.train.seed) +
      ' ' + loss + ' ' + std::to_string(evaluation.sharedDevices) + ' ' +
      std::to_string(evaluation.ensemble) + ' ' + std::to_string(evaluation.fallbackFolds) + ' ' +
      evaluation.transferMode + ' ' + std::to_string(evaluation.pretrain.epochs) + ' ' +
      std::to_string(evaluation.train.frozenEpochs) + '\n';
  if (!pretrainData.empty()) {
    for (const std::string& path : data::splitText(pretrainData, ',')) material += readFile(path);
  }
  for (size_t d = 0; d < devices.size(); ++d) {
    material += devices[d] + ' ' + model::coarseningFingerprint(kernelsByDevice[d]) + '\n';
  }
  if (transfer) material += readFile(transferFrom);
  evaluation::CoarseningTrainingLog log(reportDir + "/trainings.partial.csv",
                                        data::hex64(data::fnv1a64(material)));
  if (log.kept() > 0) {
    std::fprintf(stderr, "resuming: %zu trainings of an interrupted run kept (%s)\n", log.kept(),
                 (reportDir + "/trainings.partial.csv").c_str());
  }
  const std::vector<evaluation::CoarseningPrediction> resumed = log.predictions();
  evaluation.resumed = &resumed;

  std::string note;
  evaluation.workers = model::safeTrainingWorkers(workers, note);
  if (!note.empty()) std::fprintf(stderr, "warning: %s\n", note.c_str());
  model::setComputeThreads(1);
  ProgressPrinter printer;
  const auto predictions = evaluation::evaluateCoarsening(
      devices, kernelsByDevice, vocabulary, evaluation,
      [&](const evaluation::CoarseningPrediction& p, size_t done, size_t total) {
        char line[200];
        std::snprintf(line, sizeof line, "%zu/%zu trainings: %s %s run %d, %s -> factor %d (%.2fx)",
                      done, total, p.device.c_str(), p.method.c_str(), p.run, p.kernel.c_str(),
                      p.factor, p.speedup);
        printer.update(line, done == total);
        log.add(p);
      });

  evaluation::CoarseningReportContext context;
  context.command = commandLine("evaluate", args);
  context.settings.push_back(std::string("program: deeptune ") + DEEPTUNE_VERSION);
  context.settings.push_back("machine: " + model::cpuDescription());
  const std::string deviceCount =
      std::to_string(devices.size()) + (devices.size() == 1 ? " device" : " devices");
  context.settings.push_back("data: " + dataPath + " (" + deviceCount + ")");
  const auto chosen = [&](const char* method) {
    return std::find(evaluation.methods.begin(), evaluation.methods.end(), method) !=
           evaluation.methods.end();
  };
  context.settings.push_back(std::to_string(evaluation.workers) +
                             (evaluation.workers == 1 ? " worker" : " workers"));
  if (chosen("deeptune") || chosen("deeptune-tl")) {
    context.settings.push_back("DeepTune: " + std::to_string(evaluation.train.epochs) +
                               " epochs, batches of " + std::to_string(evaluation.train.batchSize) +
                               ", last " + std::to_string(evaluation.maxLength) + " tokens, " +
                               std::to_string(evaluation.runs) + " runs (run r: seed " +
                               std::to_string(evaluation.train.seed) +
                               " + 1000 r, held-out kernel k adds k)");
  }
  if (chosen("deeptune") || chosen("deeptune-tl")) {
    std::string variant = loss == "regret"
                              ? "loss: expected regret against the best factor (measured speedups)"
                              : "loss: cross-entropy on the best factor (the paper's)";
    variant += evaluation.sharedDevices
                   ? "; one network over all devices (device as a one-hot input)"
                   : "; one network per device (the paper's)";
    if (evaluation.ensemble > 1) {
      variant += "; ensembles of " + std::to_string(evaluation.ensemble) +
                 " networks per run (probabilities averaged)";
    }
    if (evaluation.fallbackFolds > 0) {
      variant +=
          "; fixed factor when the ensemble's probability of its choice is below a "
          "threshold chosen by " +
          std::to_string(evaluation.fallbackFolds) +
          "-fold inner cross-validation on the training kernels";
    }
    context.settings.push_back(variant);
  }
  if (transfer && evaluation.transferMode == "model") {
    context.settings.push_back("deeptune-tl transfers from " + transferFrom);
  }
  if (transfer && evaluation.transferMode == "pretrained") {
    context.settings.push_back(
        "deeptune-tl: encoder pretrained per run as a next-token model (" +
        std::to_string(evaluation.pretrain.epochs) + " epochs) on " +
        std::to_string(evaluation.pretrainSequences.size()) + " distinct sources of " +
        pretrainData + " (" + std::to_string(pretrainExcluded) +
        " identical to a coarsening kernel left out), vocabulary of " + transferFrom);
  }
  if (transfer && evaluation.train.frozenEpochs != 0) {
    context.settings.push_back(
        "deeptune-tl: encoder frozen " +
        (evaluation.train.frozenEpochs < 0
             ? std::string("throughout")
             : "for the first " + std::to_string(evaluation.train.frozenEpochs) + " epochs"));
  }
  if (chosen("magni")) {
    context.settings.push_back(
        "magni: PCA1..7 standardized, a tanh hidden layer of 2, 4, 8 or 16 units chosen by an "
        "inner leave-one-kernel-out on the training kernels, 300 full-batch Adam epochs (lr "
        "0.01); \"coarsen further?\" from factor 1 upwards, stop at the first no");
  }
  context.settings.push_back("wall time: " + formatDuration(printer.elapsed()) +
                             (log.kept() == 0
                                  ? ""
                                  : " (this run; " + std::to_string(log.kept()) +
                                        " trainings were resumed from an interrupted run)"));
  const auto hasKernel = [&](const char* name) {
    for (const auto& kernels : kernelsByDevice) {
      for (const auto& kernel : kernels) {
        if (kernel.kernel == name) return true;
      }
    }
    return false;
  };
  if (hasKernel("mt") || hasKernel("binarySearch")) {  // the paper's data
    context.notes.push_back(
        "Errata of the paper's data (../shared/data/deeptune/README.md): `mt` and `mtLocal` share "
        "a source but not a label; each is its own kernel here (one training row each), so when "
        "one is held out the other, with the same tokens, is in the training set. The "
        "`binarySearch` row's source is BitonicSort's: used as given. Kepler's `nbody` has no "
        "runtime at factor 16: there 16 and 32 score as 8, for every method and the oracle alike "
        "(the regret loss's gains too).");
  }
  context.notes.push_back(
      "A predicted factor with no measured runtime is clipped to the largest measured factor "
      "below it.");
  evaluation::writeCoarseningReport(reportDir, predictions, context);
  log.remove();  // the report holds every prediction now
  for (const evaluation::CoarseningScores& s : evaluation::coarseningScores(predictions)) {
    if (s.device != "all") continue;
    std::printf("%-12s mean speedup %.3fx over %s (%.1f%% of the oracle)\n", s.method.c_str(),
                s.mean(), deviceCount.c_str(), 100 * s.ofOracle());
  }
  std::printf("report: %s/summary.md\n", reportDir.c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
