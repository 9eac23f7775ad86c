// Training a model file, one call per task: `deeptune train` (and later the Python package) asks
// with a request and saves what comes back.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/coarsening_kernels.hpp"
#include "data/datasets.hpp"
#include "data/measured_devmap.hpp"
#include "model/boosted_tree_head.hpp"
#include "model/deeptune_model.hpp"
#include "model/training_summary.hpp"
#include "tokenizer/vocabulary.hpp"
#include "training/source_boosted.hpp"

namespace deeptune::data {
class ProgressPrinter;
}

namespace deeptune::training {

/// A model to start from, loaded: its file and its first network.
struct StartingModel {
  std::string path;
  model::DeepTuneModel model;
};

/// A devmap model file to fine-tune, loaded. Throws TrainingError unless it is a devmap model,
/// model::ModelError when it does not load.
StartingModel loadDevmapStartingModel(const std::string& path);

/// The kernels of the coarsening runtimes CSV `dataPath` labelled on `device`. Throws
/// TrainingError naming the devices of the data when `device` has no runtime there, and the data
/// module's DataError for a bad file.
std::vector<data::CoarseningKernel> coarseningTrainingKernels(const std::string& dataPath,
                                                              const std::string& device);

/// The predictor `train` writes for `task` when no --method names one: what measured best on
/// programs the model has never seen (docs/results.md, "What ships"): source-boosted for devmap,
/// fixed-factor for coarsening.
std::string defaultMethod(const std::string& task);

/// The methods `train --method` knows for `task`: devmap deeptune, source-boosted, token-boosted
/// (source-boosted over token counts alone); coarsening deeptune, fixed-factor.
const std::vector<std::string>& trainMethods(const std::string& task);

/// One training of a model file.
struct TrainRequest {
  std::string task = "devmap";  ///< devmap or coarsening
  /// A trainMethods() name; empty: deeptune with fromPath or transferPath, else
  /// defaultMethod(task).
  std::string method;
  /// source-boosted (and token-boosted, whose features are the token counts alone): the
  /// features and the boosted trees; the defaults are what ships.
  SourceBoostedOptions sourceBoosted;
  /// devmap: the rows, and the devices their labels name (empty: the paper's CPU and GPU).
  std::vector<data::DevmapRow> devmapRows;
  std::vector<data::MeasuredDevice> devices;
  /// coarsening: the kernels, labelled on one device.
  std::vector<data::CoarseningKernel> kernels;
  std::string dataName;  ///< where the data came from (names a derived vocabulary)
  std::string platform;  ///< coarsening: the device whose runtimes label the kernels
  /// How the networks start: afresh; fine-tuned from the devmap model `fromPath` (its shape,
  /// vocabulary and weights; its output layers afresh when its devices are not the data's); or
  /// with the language model of `transferPath` copied into fresh networks (its vocabulary).
  std::string fromPath, transferPath;
  /// A vocabulary file; when empty, the starting model's or one derived from the data.
  std::string vocabularyPath;
  model::TrainOptions train;     ///< epochs, batches, first seed, frozen epochs
  int maxLength = 1024;          ///< taken from the model when fine-tuning
  bool paperPadding = false;     ///< taken from the model when fine-tuning
  std::string auxScale = "raw";  ///< taken from the model when fine-tuning
  std::string pooling = "last";  ///< taken from the model when fine-tuning
  int networks = 1;              ///< an ensemble of networks with seeds seed, seed + 1000, ...
  /// devmap: each network predicts through boosted trees on its pooled states and log2 launch
  /// inputs (and the token counts with boostedHeadCounts), fitted on the training rows.
  bool boostedHead = false;
  bool boostedHeadCounts = false;
  std::string command;  ///< the command line, recorded in the file
};

/// The networks (and heads) a training produced, or the predictor without a network, ready to
/// save.
struct TrainedModel {
  std::string method;              ///< what answers: deeptune, source-boosted or fixed-factor
  model::ModelInfo predictorInfo;  ///< source-boosted, fixed-factor: the file's
  std::vector<model::BoostedTreeHead> forest;  ///< source-boosted
  std::vector<model::DeepTuneModel> networks;
  std::vector<std::optional<model::BoostedTreeHead>> heads;  ///< one per network, or none
  std::vector<model::TrainingSummary> summaries;             ///< one per network
  size_t examples = 0;                                       ///< training rows or kernels

  /// Writes the model file: a predictor without a network (format 7), one network without a
  /// head as such, else an ensemble file.
  void save(const std::string& path) const;
  /// Each network's final training accuracy and its best epoch, e.g. "81.2% (best 83.0% at
  /// epoch 41), 80.9% (best 82.5% at epoch 47)".
  std::string accuracySummary() const;
  /// What `train` prints when done, taking `wallTime`: "trained deeptune (3 networks) on 680 rows
  /// in 5m02s: training accuracy ..." or "trained source-boosted (tokens,counts,ratios) on 680
  /// rows in 0.4s" (", probability calibrated by temperature" inside the brackets when it is)
  /// or "trained fixed-factor (factor 4) on 17 kernels in 0.0s".
  std::string summaryLine(const std::string& wallTime) const;
};

/// Called after each epoch of network `network` (0-based) and once when a network is trained.
struct TrainProgress {
  std::function<void(int network, const model::EpochProgress&)> epoch;
  std::function<void(int network, const model::TrainingSummary&)> networkDone;
};

/// A training's progress as lines on `printer`: epochs (with the ETA), collapsed networks, of
/// `networks` networks.
TrainProgress printedTrainProgress(data::ProgressPrinter& printer, int networks);

/// Throws TrainingError (naming the CLI's option, e.g. "train: --networks must be 1 to 64") when
/// the request's settings are out of range, do not fit its task, or ask for two starts.
void checkTrainRequest(const TrainRequest& request);

/// The progress line of an epoch of network `network` (0-based) of `networks`: "network 2/3  epoch
/// 7/50  loss 0.4821  accuracy 0.812  1.9s  ETA 3m02s" ("network ..." only for an ensemble).
std::string trainingEpochLine(int network, int networks, const model::EpochProgress& progress);

/// The warning when network `network`'s training collapsed (TrainingSummary::collapsed), else "".
std::string collapseWarning(int network, int networks, const model::TrainingSummary& summary);

/// Trains the request's method on its data. deeptune: loads the starting model and the
/// vocabulary the request names, then trains `request.networks` networks (one compute thread:
/// the result does not depend on the core count). source-boosted: fitSourceBoosted on every row
/// (the vocabulary derived from the data or --vocab). fixed-factor: the factor with the best mean
/// speedup on the kernels. Throws TrainingError, the model module's ModelError or the
/// tokenizer's VocabError.
TrainedModel trainModel(const TrainRequest& request, const TrainProgress& progress = {});

/// The factor a fixed-factor model trained on `kernels` chooses (the one with the best mean
/// speedup over them): what `train --task coarsening` writes by default, and the coarsening
/// evaluation's `shipped`.
int fixedFactorOf(const std::vector<data::CoarseningKernel>& kernels);

/// `evaluate --methods shipped`: the cross-validation method of what `train` writes by default
/// for device mapping (defaultMethod("devmap") with TrainRequest's default settings), trained per
/// fold by the function trainModel calls.
data::DevmapPredictor shippedDevmapPredictor(const std::vector<data::DevmapRow>& rows);

}  // namespace deeptune::training
