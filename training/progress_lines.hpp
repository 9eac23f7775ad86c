// The progress of train, evaluate and pretrain as lines on a ProgressPrinter (stderr).
#pragma once

#include "training/coarsening_evaluation_run.hpp"
#include "training/devmap_evaluation.hpp"
#include "training/language_model_pretraining.hpp"
#include "training/model_training.hpp"

namespace deeptune::data {
class ProgressPrinter;
}

namespace deeptune::training {

/// A training's epochs (with the ETA) and collapsed networks, of `networks` networks.
TrainProgress printedTrainProgress(data::ProgressPrinter& printer, int networks);

/// An evaluation's epochs (with the ETA over every fold and seed), folds, methods and warnings.
DevmapEvaluationProgress printedEvaluationProgress(data::ProgressPrinter& printer,
                                                   const DevmapEvaluationRequest& request);

/// The coarsening evaluation's predictions as they come; its notices as plain lines.
CoarseningEvaluationProgress printedCoarseningProgress(data::ProgressPrinter& printer);

/// Pretraining's epochs: losses, time and ETA, the last one ending its line.
PretrainEpochCallback printedPretrainProgress(data::ProgressPrinter& printer, int epochs);

}  // namespace deeptune::training
