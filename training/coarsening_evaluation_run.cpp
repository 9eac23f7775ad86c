// One thread-coarsening evaluation: the kernels of each device, the transfer source, the
// resumable log of trainings and the report.
#include "training/coarsening_evaluation_run.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "data/checksum.hpp"
#include "data/data_error.hpp"
#include "data/datasets.hpp"
#include "data/duration_text.hpp"
#include "data/file_io.hpp"
#include "data/text_split.hpp"
#include "evaluation/coarsening_training_log.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "evaluation/protocol.hpp"
#include "model/coarsening_data.hpp"
#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"
#include "training/training_error.hpp"

namespace deeptune::training {
namespace {

/// The distinct sources of the device-mapping CSVs `paths` (comma-separated) as tokens of
/// `vocabulary`, less every source of the coarsening kernels (evaluation::pretrainingSources).
std::vector<std::vector<int>> pretrainingSequences(
    const std::string& paths, const tokenizer::Vocabulary& vocabulary, int maxLength,
    const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice, size_t& excluded) {
  std::vector<std::string> evaluated, candidates;
  for (const auto& kernels : kernelsByDevice) {
    for (const auto& kernel : kernels) evaluated.push_back(kernel.src);
  }
  std::set<std::string> seen;
  for (const std::string& path : data::splitText(paths, ',')) {
    for (const data::DevmapRow& row : data::readDevmapCsv(path)) {
      if (seen.insert(row.src).second) candidates.push_back(row.src);
    }
  }
  std::vector<std::vector<int>> sequences;
  for (const std::string& source :
       evaluation::pretrainingSources(candidates, evaluated, excluded)) {
    sequences.push_back(model::modelTokens(vocabulary, source, maxLength));
  }
  return sequences;
}

/// Each device's kernels, in the order of `devices`.
std::vector<std::vector<data::CoarseningKernel>> kernelsOfDevices(
    const std::vector<data::CoarseningRow>& rows, const std::vector<std::string>& devices,
    const std::string& dataPath) {
  std::vector<std::vector<data::CoarseningKernel>> kernelsByDevice;
  for (const std::string& device : devices) {
    try {
      kernelsByDevice.push_back(data::coarseningKernels(rows, device));
    } catch (const data::DataError& e) {
      throw TrainingError("evaluate: " + dataPath + ": " + e.what());
    }
  }
  return kernelsByDevice;
}

bool chosen(const CoarseningEvaluationOptions& options, const char* method) {
  return std::find(options.methods.begin(), options.methods.end(), method) != options.methods.end();
}

/// What the trainings depend on (the data, the training settings, the transfer source): an
/// interrupted run's log is resumed only when this is unchanged.
std::string resumeMaterial(const CoarseningEvaluationRequest& request,
                           const std::vector<std::string>& devices,
                           const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice,
                           bool transfer) {
  const CoarseningEvaluationOptions& o = request.options;
  const std::string loss =
      o.train.loss == model::TrainOptions::Loss::kRegret ? "regret" : "classification";
  std::string material = std::to_string(o.train.epochs) + ' ' + std::to_string(o.train.batchSize) +
                         ' ' + std::to_string(o.maxLength) + ' ' + std::to_string(o.train.seed) +
                         ' ' + loss + ' ' + std::to_string(o.sharedDevices) + ' ' +
                         std::to_string(o.ensemble) + ' ' + std::to_string(o.fallbackFolds) + ' ' +
                         o.transferMode + ' ' + std::to_string(o.pretrain.epochs) + ' ' +
                         std::to_string(o.train.frozenEpochs) + ' ' +
                         std::to_string(o.vocabularyPerFold) + '\n';
  if (!request.pretrainData.empty()) {
    for (const std::string& path : data::splitText(request.pretrainData, ',')) {
      material += data::readFileBytes(path, data::kMaxSourceBytes);
    }
  }
  for (size_t d = 0; d < devices.size(); ++d) {
    material += devices[d] + ' ' + model::coarseningFingerprint(kernelsByDevice[d]) + '\n';
  }
  if (transfer) material += data::readFileBytes(request.transferFrom, data::kMaxSourceBytes);
  return material;
}

/// The learned methods' settings lines of the report.
void addLearnedSettings(const CoarseningEvaluationRequest& request, size_t pretrainExcluded,
                        std::vector<std::string>& settings) {
  const CoarseningEvaluationOptions& o = request.options;
  const bool transfer = chosen(o, "deeptune-tl");
  if (chosen(o, "deeptune") || transfer) {
    settings.push_back("DeepTune: " + std::to_string(o.train.epochs) + " epochs, batches of " +
                       std::to_string(o.train.batchSize) + ", last " + std::to_string(o.maxLength) +
                       " tokens, " + std::to_string(o.runs) + " runs (run r: seed " +
                       std::to_string(o.train.seed) + " + 1000 r, held-out kernel k adds k)");
    std::string variant = o.train.loss == model::TrainOptions::Loss::kRegret
                              ? "loss: expected regret against the best factor (measured speedups)"
                              : "loss: cross-entropy on the best factor (the paper's)";
    variant += o.sharedDevices ? "; one network over all devices (device as a one-hot input)"
                               : "; one network per device (the paper's)";
    if (o.ensemble > 1) {
      variant += "; ensembles of " + std::to_string(o.ensemble) +
                 " networks per run (probabilities averaged)";
    }
    if (o.fallbackFolds > 0) {
      variant +=
          "; fixed factor when the ensemble's probability of its choice is below a "
          "threshold chosen by " +
          std::to_string(o.fallbackFolds) + "-fold inner cross-validation on the training kernels";
    }
    settings.push_back(variant);
  }
  if (chosen(o, "deeptune")) {
    settings.push_back(o.vocabularyPerFold
                           ? "deeptune's vocabulary: derived from each training's kernels (the "
                             "held-out kernel's tokens are not in it)"
                           : "deeptune's vocabulary: every kernel's");
  }
  if (transfer && o.transferMode == "model") {
    settings.push_back("deeptune-tl transfers from " + request.transferFrom);
  }
  if (transfer && o.transferMode == "pretrained") {
    settings.push_back("deeptune-tl: encoder pretrained per run as a next-token model (" +
                       std::to_string(o.pretrain.epochs) + " epochs) on " +
                       std::to_string(o.pretrainSequences.size()) + " distinct sources of " +
                       request.pretrainData + " (" + std::to_string(pretrainExcluded) +
                       " identical to a coarsening kernel left out), vocabulary of " +
                       request.transferFrom);
  }
  if (transfer && o.train.frozenEpochs != 0) {
    settings.push_back("deeptune-tl: encoder frozen " +
                       (o.train.frozenEpochs < 0
                            ? std::string("throughout")
                            : "for the first " + std::to_string(o.train.frozenEpochs) + " epochs"));
  }
  if (chosen(o, "magni")) {
    settings.push_back(
        "magni: PCA1..7 standardized, a tanh hidden layer of 2, 4, 8 or 16 units chosen by an "
        "inner leave-one-kernel-out on the training kernels, 300 full-batch Adam epochs (lr "
        "0.01); \"coarsen further?\" from factor 1 upwards, stop at the first no");
  }
}

/// The notes of the report: the paper's errata when its kernels are there, the clipping rule.
std::vector<std::string> reportNotes(
    const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice) {
  const auto hasKernel = [&](const char* name) {
    for (const auto& kernels : kernelsByDevice) {
      for (const auto& kernel : kernels) {
        if (kernel.kernel == name) return true;
      }
    }
    return false;
  };
  std::vector<std::string> notes;
  if (hasKernel("mt") || hasKernel("binarySearch")) {  // the paper's data
    notes.push_back(
        "Errata of the paper's data (../shared/data/deeptune/README.md): `mt` and `mtLocal` share "
        "a source but not a label; each is its own kernel here (one training row each), so when "
        "one is held out the other, with the same tokens, is in the training set. The "
        "`binarySearch` row's source is BitonicSort's: used as given. Kepler's `nbody` has no "
        "runtime at factor 16: there 16 and 32 score as 8, for every method and the oracle alike "
        "(the regret loss's gains too).");
  }
  notes.push_back(
      "A predicted factor with no measured runtime is clipped to the largest measured factor "
      "below it.");
  return notes;
}

}  // namespace

void checkCoarseningEvaluationRequest(const CoarseningEvaluationRequest& request,
                                      const std::string& loss) {
  const CoarseningEvaluationOptions& o = request.options;
  if (o.runs < 1 || o.runs > 100 || o.train.epochs < 1 || request.workers < 1 || o.maxLength < 1 ||
      o.train.batchSize < 1 || o.ensemble < 1 || o.ensemble > 100 || o.fallbackFolds < 0 ||
      o.fallbackFolds == 1 || o.fallbackFolds > 100 || o.pretrain.epochs < 1 ||
      o.pretrain.epochs > 1000 || o.train.frozenEpochs < -1) {
    throw TrainingError(
        "evaluate: --seeds and --ensemble 1 to 100; --fallback-folds 0 or 2 to 100; "
        "--pretrain-epochs 1 to 1000; --freeze-epochs -1 or more; --epochs, --workers, "
        "--max-length, --batch-size positive");
  }
  if (loss != "classification" && loss != "regret") {
    throw TrainingError("evaluate: --loss is classification or regret, not '" + loss + "'");
  }
  if (o.transferMode != "model" && o.transferMode != "pretrained") {
    throw TrainingError("evaluate: --transfer is model or pretrained, not '" + o.transferMode +
                        "'");
  }
  if ((o.transferMode == "pretrained") != !request.pretrainData.empty()) {
    throw TrainingError("evaluate: --transfer pretrained and --pretrain-data go together");
  }
}

std::vector<evaluation::CoarseningScores> runCoarseningEvaluation(
    CoarseningEvaluationRequest request, const CoarseningEvaluationProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  CoarseningEvaluationOptions& options = request.options;
  evaluation::prepareReportFolder(request.reportDir);  // before the training
  const auto rows = data::readCoarseningRuntimesCsv(request.dataPath);
  const std::vector<std::string> devices =
      request.devices.empty() ? data::coarseningDevices(rows) : request.devices;
  const auto kernelsByDevice = kernelsOfDevices(rows, devices, request.dataPath);
  if (!request.oraclesPath.empty()) {
    evaluation::checkCoarseningOracles(request.oraclesPath, devices, kernelsByDevice);
  }
  const bool transfer = chosen(options, "deeptune-tl");
  if (transfer && request.transferFrom.empty()) {
    throw TrainingError("evaluate: deeptune-tl needs --transfer-from MODEL in this build");
  }
  std::optional<model::DeepTuneModel> source;
  if (transfer) source.emplace(model::DeepTuneModel::load(request.transferFrom));
  options.transferSource = source ? &*source : nullptr;
  // Both learned methods read the same tokens: the transfer source's vocabulary when there is one.
  const tokenizer::Vocabulary vocabulary =
      source ? tokenizer::Vocabulary(source->info().vocabulary, request.transferFrom)
             : model::coarseningVocabulary(kernelsByDevice.front(), request.dataPath);
  size_t pretrainExcluded = 0;
  if (transfer && options.transferMode == "pretrained") {
    options.pretrainSequences = pretrainingSequences(
        request.pretrainData, vocabulary, options.maxLength, kernelsByDevice, pretrainExcluded);
  }
  evaluation::CoarseningTrainingLog log(
      request.reportDir + "/trainings.partial.csv",
      data::hex64(data::fnv1a64(resumeMaterial(request, devices, kernelsByDevice, transfer))));
  if (log.kept() > 0 && progress.notice) {
    progress.notice("resuming: " + std::to_string(log.kept()) +
                    " trainings of an interrupted run kept (" + request.reportDir +
                    "/trainings.partial.csv)");
  }
  const std::vector<evaluation::CoarseningPrediction> resumed = log.predictions();
  options.resumed = &resumed;
  std::string note;
  options.workers = model::safeTrainingWorkers(request.workers, note);
  if (!note.empty() && progress.notice) progress.notice("warning: " + note);
  model::setComputeThreads(1);
  const auto predictions =
      evaluateCoarsening(devices, kernelsByDevice, vocabulary, options,
                         [&](const evaluation::CoarseningPrediction& p, size_t done, size_t total) {
                           if (progress.prediction) progress.prediction(p, done, total);
                           log.add(p);
                         });

  evaluation::CoarseningReportContext context;
  context.command = request.command;
  context.settings.push_back(std::string("program: deeptune ") + DEEPTUNE_VERSION);
  context.settings.push_back("machine: " + model::cpuDescription());
  const std::string deviceCount =
      std::to_string(devices.size()) + (devices.size() == 1 ? " device" : " devices");
  context.settings.push_back("data: " + request.dataPath + " (" + deviceCount + ")");
  context.settings.push_back(std::to_string(options.workers) +
                             (options.workers == 1 ? " worker" : " workers"));
  addLearnedSettings(request, pretrainExcluded, context.settings);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  context.settings.push_back("wall time: " + data::formatDuration(seconds) +
                             (log.kept() == 0
                                  ? ""
                                  : " (this run; " + std::to_string(log.kept()) +
                                        " trainings were resumed from an interrupted run)"));
  context.notes = reportNotes(kernelsByDevice);
  evaluation::writeCoarseningReport(request.reportDir, predictions, context);
  log.remove();  // the report holds every prediction now
  return evaluation::coarseningScores(predictions);
}

}  // namespace deeptune::training
