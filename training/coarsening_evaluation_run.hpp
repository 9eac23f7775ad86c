// One thread-coarsening evaluation, as `deeptune evaluate --task coarsening` runs it: the kernels
// of each device, the transfer source, the resumable log of trainings, the report.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "evaluation/coarsening_report.hpp"
#include "training/coarsening_evaluation.hpp"

namespace deeptune::data {
class ProgressPrinter;
}

namespace deeptune::training {

/// What to evaluate. The options' transferSource, pretrainSequences, resumed and workers are
/// filled in by runCoarseningEvaluation.
struct CoarseningEvaluationRequest {
  std::string dataPath;                 ///< the runtimes CSV
  std::string oraclesPath;              ///< an oracles CSV to check the best factors against
  std::vector<std::string> devices;     ///< empty: every device of the data
  CoarseningEvaluationOptions options;  ///< methods, runs, training, ensemble, fallback
  std::string transferFrom;             ///< deeptune-tl's source model file
  std::string pretrainData;  ///< with transferMode "pretrained": devmap CSVs, comma-separated
  std::string reportDir;     ///< where the report (and the resumable log) go
  int workers = 2;           ///< trainings asked to run at once
  std::string command;       ///< the command line, for the report
};

/// Calls during the evaluation: each trained prediction (from worker threads, one at a time), and
/// the notices a person should read (resumed trainings, fewer workers).
struct CoarseningEvaluationProgress {
  CoarseningProgress prediction;
  std::function<void(const std::string& line)> notice;
};

/// The predictions as lines on `printer` as they come; the notices as plain lines on stderr.
CoarseningEvaluationProgress printedCoarseningProgress(data::ProgressPrinter& printer);

/// Throws TrainingError (naming the CLI's options) when the request's settings are out of range,
/// `loss` is not "classification" or "regret", or the transfer mode and its data do not fit.
void checkCoarseningEvaluationRequest(const CoarseningEvaluationRequest& request,
                                      const std::string& loss);

/// Runs the evaluation and writes its report into request.reportDir; an interrupted run with the
/// same data and settings is resumed from its log. Returns the report's scores (per device and
/// method, "all" devices included). Throws TrainingError, evaluation::EvaluationError,
/// data::DataError or the model module's ModelError.
std::vector<evaluation::CoarseningScores> runCoarseningEvaluation(
    CoarseningEvaluationRequest request, const CoarseningEvaluationProgress& progress = {});

}  // namespace deeptune::training
