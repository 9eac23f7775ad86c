// One device-mapping evaluation, as `deeptune evaluate` runs it: every chosen method
// cross-validated under a protocol, and the report's record of what was run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/measured_devmap.hpp"
#include "evaluation/devmap_metrics.hpp"
#include "evaluation/devmap_report.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "model/devmap_deeptune.hpp"
#include "tokenizer/vocabulary.hpp"
#include "training/deeptune_runs.hpp"
#include "training/source_boosted.hpp"
#include "training/validation_scores.hpp"

namespace deeptune::data {
class ProgressPrinter;
}

namespace deeptune::training {

/// What to evaluate, and how DeepTune trains.
struct DevmapEvaluationRequest {
  std::vector<data::DevmapRow> rows;
  std::vector<data::MeasuredDevice> devices;  ///< a measure CSV's two devices (else empty)
  std::string dataName;                       ///< where the rows came from (names a vocabulary)
  evaluation::Protocol protocol;              ///< its folds, subset and leakage rule
  std::vector<std::string> methods;           ///< evaluation::devmapMethods() names
  model::DeepTuneMethodOptions deeptune;      ///< vocabularyPerFold is taken from the protocol
  int seeds = 1;                              ///< DeepTune runs
  int workers = 2;                            ///< folds trained at once
  bool ensemble = false;                      ///< also the runs' probabilities averaged
  StateHeads heads;
  SourceBoostedOptions sourceBoosted;  ///< the source-boosted method's (not shipped's) settings
  /// Score the methods on validation carved from each fold's training rows (validationScores)
  /// instead of on the test folds; the report holds validation.csv alone.
  bool validation = false;
  /// A devmap model every fold's DeepTune starts from (fine-tuned; empty: from scratch): its
  /// vocabulary and shape replace the request's, the whole network when its devices are the
  /// data's, else its language model.
  std::string fromPath;
  std::string command;    ///< the command line, for the report
  std::string reportDir;  ///< where the report goes (made before any training)
  std::string platform;   ///< the platform's name in the report
};

/// Calls during the evaluation (from worker threads for epoch and fold, one at a time).
struct DevmapEvaluationProgress {
  RunProgressCallback epoch;
  model::FoldDoneCallback fold;
  std::function<void(const std::string& method)> methodDone;
  std::function<void(const std::string& warning)> warning;
};

/// An evaluation's progress as lines on `printer`: epochs (with the ETA over every fold and
/// seed), folds, methods and warnings.
DevmapEvaluationProgress printedEvaluationProgress(data::ProgressPrinter& printer,
                                                   const DevmapEvaluationRequest& request);

/// Every method's predictions, and the report's context (protocol, command, settings, folds).
struct DevmapEvaluation {
  std::vector<evaluation::MethodPredictions> methods;
  evaluation::DevmapReportContext context;
  std::vector<ValidationScore> validation;  ///< request.validation: the scores, else empty
};

/// Throws TrainingError (naming the CLI's option, e.g. "evaluate: --seeds 1 to 100") when the
/// request's settings are out of range.
void checkDevmapEvaluationRequest(const DevmapEvaluationRequest& request);

/// Adds the normalized kernels of `folder` (.cl files, subfolders too) to what each fold's network
/// pretrains on; throws TrainingError when the request pretrains nothing or the folder cannot be
/// read ("evaluate: --pretrain-corpus ...").
void addPretrainCorpus(DevmapEvaluationRequest& request, const std::string& folder);

/// Loads the model DeepTune starts from, makes the report folder, runs the request's methods in
/// order and writes the report (evaluation::writeDevmapReport). Throws TrainingError,
/// evaluation::EvaluationError or the model module's ModelError.
DevmapEvaluation evaluateDevmap(const DevmapEvaluationRequest& request,
                                const DevmapEvaluationProgress& progress = {});

}  // namespace deeptune::training
