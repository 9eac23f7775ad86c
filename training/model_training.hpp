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

namespace deeptune::training {

/// How the networks start: afresh, or from a trained model (`from`: fine-tuned, its shape and
/// vocabulary; `transfer-from`: its language model copied into a fresh network).
enum class StartKind { kScratch, kFineTune, kTransfer };

/// A model to start from, loaded: its file and its first network.
struct StartingModel {
  std::string path;
  model::DeepTuneModel model;
};

/// A devmap model file to fine-tune, loaded. Throws TrainingError unless it is a devmap model,
/// model::ModelError when it does not load.
StartingModel loadDevmapStartingModel(const std::string& path);

/// One training of a model file.
struct TrainRequest {
  std::string task = "devmap";  ///< devmap or coarsening
  /// devmap: the rows, and the devices their labels name (empty: the paper's CPU and GPU).
  std::vector<data::DevmapRow> devmapRows;
  std::vector<data::MeasuredDevice> devices;
  /// coarsening: the kernels, labelled on one device.
  std::vector<data::CoarseningKernel> kernels;
  std::string dataName;  ///< where the data came from (names a derived vocabulary)
  /// The vocabulary; when absent, the starting model's or one derived from the data.
  std::optional<tokenizer::Vocabulary> vocabulary;
  StartKind start = StartKind::kScratch;
  const StartingModel* from = nullptr;  ///< with kFineTune or kTransfer
  model::TrainOptions train;            ///< epochs, batches, first seed, frozen epochs
  int maxLength = 1024;                 ///< taken from the model with kFineTune
  bool paperPadding = false;            ///< taken from the model with kFineTune
  std::string auxScale = "raw";         ///< taken from the model with kFineTune
  std::string pooling = "last";         ///< taken from the model with kFineTune
  int networks = 1;  ///< an ensemble of networks with seeds seed, seed + 1000, ...
  /// devmap: each network predicts through boosted trees on its pooled states and log2 launch
  /// inputs (and the token counts with boostedHeadCounts), fitted on the training rows.
  bool boostedHead = false;
  bool boostedHeadCounts = false;
  std::string command;  ///< the command line, recorded in the file
};

/// The networks (and heads) a training produced, ready to save.
struct TrainedModel {
  std::vector<model::DeepTuneModel> networks;
  std::vector<std::optional<model::BoostedTreeHead>> heads;  ///< one per network, or none
  std::vector<model::TrainingSummary> summaries;             ///< one per network
  size_t examples = 0;                                       ///< training rows or kernels

  /// Writes the model file: one network without a head as such, else an ensemble file.
  void save(const std::string& path) const;
};

/// Called after each epoch of network `network` (0-based) and once when a network is trained.
struct TrainProgress {
  std::function<void(int network, const model::EpochProgress&)> epoch;
  std::function<void(int network, const model::TrainingSummary&)> networkDone;
};

/// Throws TrainingError (naming the CLI's option, e.g. "train: --networks must be 1 to 64") when
/// the request's settings are out of range or do not fit its task.
void checkTrainRequest(const TrainRequest& request);

/// Trains `request.networks` networks on the request's data (one compute thread: the result does
/// not depend on the core count). Throws TrainingError or the model module's ModelError.
TrainedModel trainModel(const TrainRequest& request, const TrainProgress& progress = {});

}  // namespace deeptune::training
