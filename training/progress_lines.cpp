// The progress of train, evaluate and pretrain as lines on a ProgressPrinter (stderr): the
// printed*Progress functions their headers declare.
#include <atomic>
#include <cstdio>
#include <memory>

#include "data/duration_text.hpp"
#include "data/progress_printer.hpp"
#include "evaluation/coarsening_report.hpp"
#include "evaluation/devmap_report.hpp"
#include "training/coarsening_evaluation_run.hpp"
#include "training/devmap_evaluation.hpp"
#include "training/language_model_pretraining.hpp"
#include "training/model_training.hpp"

namespace deeptune::training {

TrainProgress printedTrainProgress(data::ProgressPrinter& printer, int networks) {
  TrainProgress progress;
  progress.epoch = [&printer, networks](int n, const model::EpochProgress& p) {
    printer.update(trainingEpochLine(n, networks, p), p.epoch == p.epochs && n == networks - 1);
  };
  progress.networkDone = [&printer, networks](int n, const model::TrainingSummary& summary) {
    const std::string warning = collapseWarning(n, networks, summary);
    if (!warning.empty()) printer.update(warning, true);
  };
  return progress;
}

DevmapEvaluationProgress printedEvaluationProgress(data::ProgressPrinter& printer,
                                                   const DevmapEvaluationRequest& request) {
  DevmapEvaluationProgress progress;
  const int folds = request.protocol.folds, seeds = request.seeds;
  auto done = std::make_shared<std::atomic<int>>(0);
  const int totalEpochs = folds * request.deeptune.train.epochs * seeds;
  progress.epoch = [&printer, done, totalEpochs, folds, seeds](int run, int fold,
                                                               const model::EpochProgress& p) {
    const int finished = ++*done;
    const double eta = printer.elapsed() / finished * (totalEpochs - finished);
    printer.update(evaluation::deeptuneEpochLine(run, seeds, fold, folds, p, eta));
  };
  // Measured data: the GPU column's device by name (both may be CPUs, issue 45).
  const std::string gpuColumn = request.devices.size() == 2 ? request.devices[1].name : "GPU";
  progress.fold = [&printer, folds, gpuColumn](const model::FoldTraining& f) {
    printer.update(evaluation::foldTrainingReport(f, folds, gpuColumn), true);
  };
  progress.warning = [&printer](const std::string& note) {
    printer.update("warning: " + note, true);
  };
  progress.methodDone = [&printer](const std::string& method) {
    printer.update(method + ": done after " + data::formatDuration(printer.elapsed()), true);
  };
  return progress;
}

CoarseningEvaluationProgress printedCoarseningProgress(data::ProgressPrinter& printer) {
  CoarseningEvaluationProgress progress;
  progress.prediction = [&printer](const evaluation::CoarseningPrediction& p, size_t done,
                                   size_t total) {
    printer.update(evaluation::coarseningProgressLine(p, done, total), done == total);
  };
  progress.notice = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  return progress;
}

PretrainEpochCallback printedPretrainProgress(data::ProgressPrinter& printer, int epochs) {
  return [&printer, epochs](int epoch, double trainLoss, double heldOutLoss, double seconds) {
    printer.update(pretrainEpochLine(epoch, epochs, trainLoss, heldOutLoss, seconds),
                   epoch == epochs);
  };
}

}  // namespace deeptune::training
