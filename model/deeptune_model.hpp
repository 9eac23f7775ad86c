// DeepTuneModel: the trainable DeepTune predictor behind plain value types (no Torch in here).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/boosted_tree_head.hpp"
#include "model/probability_calibration.hpp"
#include "model/training_programs.hpp"
#include "model/training_summary.hpp"

namespace deeptune::model {

/// One example: token ids (already pre-truncated), auxiliary inputs, and the label index when
/// training (-1 when predicting).
struct Example {
  std::vector<int> tokens;
  std::vector<float> aux;
  int label = -1;
  /// What choosing each label gains (e.g. a coarsening factor's measured speedup), one value per
  /// label; needed only by the regret loss (TrainOptions::Loss::kRegret).
  std::vector<float> gains;
  /// The source's static counts (tokenizer::staticCounts, kStaticCountValues values in its
  /// order), read by a source-boosted predictor whose features include them; else unused.
  std::vector<float> staticCounts;
};

/// What a model is for and what it was trained on; stored in the model file and checked on load.
struct ModelInfo {
  std::string task;                     ///< "devmap" or "coarsening"
  std::vector<std::string> vocabulary;  ///< tokens in id order (the tokenizer's vocabulary)
  std::vector<std::string> auxInputs;   ///< e.g. {"transfer", "wgsize"}
  /// How the auxiliary inputs enter the network: "raw" (the paper's: as given, then BatchNorm)
  /// or "log2" (log2(1 + max(0, value)) first; scaledAuxInput()).
  std::string auxScale = "raw";
  /// What the heads read of the LSTM: "last" (the paper's: layer 2's state at the last token)
  /// or "mean" (its mean over every token).
  std::string pooling = "last";
  std::vector<std::string> labels;  ///< e.g. {"CPU", "GPU"}
  /// devmap models trained on measured data (format 6): the devices the two labels stand for,
  /// in label order, by CL_DEVICE_NAME and type ("CPU", "GPU", ...). Empty for the paper's data,
  /// whose labels are the device types themselves.
  std::vector<std::string> deviceNames, deviceTypes;
  int maxLength = 1024;  ///< sequences keep their last maxLength tokens
  /// Hidden units of each of the two LSTM layers: 64, the paper's; a multiple of 32 up to 512
  /// (the file's "network" sizes).
  int lstmSize = 64;
  bool paperPadding = false;    ///< pre-pad every sequence to maxLength (the paper's Keras)
  std::string dataFingerprint;  ///< hash of the training data, "" if untrained
  int trainingRows = 0;
  std::string trainingCommand;  ///< how it was made, for provenance
  /// The model whose language model (embedding and LSTM layers) this one started from, as
  /// "FILE (fnv1a64=...)"; "" when trained from scratch.
  std::string transferredFrom;
  /// Read from the file: how many networks it averages (an ensemble over seeds), and whether
  /// they predict through boosted-tree heads on their pooled states (model/README.md, format 5).
  /// DeepTuneModel::load keeps the file's figures but holds its first network alone, without a
  /// head; DeepTuneModel::save writes one network without a head whatever they say.
  int networks = 1;
  bool boostedHeads = false;
  /// What answers (model/README.md, "Predictors"): "deeptune" (the networks above),
  /// "source-boosted" (boosted trees over sourceFeatures rows, no network; format 7) or
  /// "fixed-factor" (a coarsening model that always chooses labels[fixedLabel]; format 7).
  std::string method = "deeptune";
  std::string sourceFeatures;  ///< source-boosted: model::sourceFeatureSetName of its rows
  int fixedLabel = -1;         ///< fixed-factor: the label it chooses
  int forest = 0;              ///< source-boosted: how many boosted-tree models it averages
  /// source-boosted: the map of its GPU probability fitted on held-out probabilities of its
  /// training data (format 8); "none" otherwise.
  ProbabilityCalibration calibration;
  /// source-boosted: the token profiles of its distinct training programs (format 8), which
  /// InferenceModel::nearestDistance compares a kernel with; null when the file has none.
  std::shared_ptr<const TrainingPrograms> trainingPrograms;
};

/// Training hyper-parameters; defaults are the paper's.
struct TrainOptions {
  int epochs = 50;
  int batchSize = 64;  ///< rows per batch (see model/README.md)
  /// kRows (default): shuffled rows, as the paper's Keras fit (rows of one source in a batch
  /// share one LSTM pass); measured the most accurate (docs/results.md). kRandom: whole sources in
  /// random order until a batch holds batchSize rows. kSimilarLength: whole sources of similar
  /// length (less padding, fastest).
  enum class Batching { kRows, kRandom, kSimilarLength } batching = Batching::kRows;
  double learningRate = 1e-3;
  /// kClassification (the paper's): cross-entropy on the label. kRegret: the expected regret of
  /// the predicted distribution, sum over labels of p(label) * (best gain - its gain), from each
  /// example's `gains` (a near tie costs little, a 3x slowdown much).
  enum class Loss { kClassification, kRegret } loss = Loss::kClassification;
  uint64_t seed = 204;
  /// kFast (default): the hand-written LSTM (forward and backward through time,
  /// model/README.md); kStock: LibTorch's nn::LSTM, the reference. The same function; the
  /// model then predicts through the same path.
  enum class Lstm { kStock, kFast } lstm = Lstm::kFast;
  /// Threads of the fast LSTM's loops, each taking every n-th sequence of a batch: the model
  /// trained is the same, bit for bit, for any number (tests/test_fast_lstm.cpp).
  int lstmThreads = 1;
  /// Fine-tuning: the language model (embedding and LSTM) is not updated during the first
  /// frozenEpochs epochs (its gradients are dropped before Adam sees them, so its moments stay
  /// zero); -1 keeps it fixed throughout. The heads always train.
  int frozenEpochs = 0;
  /// Early stopping: when non-empty, the model is scored on these examples (labels required)
  /// after every epoch and ends with the weights of the first epoch that scored best.
  std::vector<Example> validation;
};

/// Pretraining the language model (embedding and both LSTM layers) on unlabelled sequences:
/// predicting each next token from the state after the tokens before it.
/// The defaults: of six settings (learning rate 1e-3, 3e-3, 1e-2 x batches of 8 or 32), the one
/// whose next-token loss fell fastest over 10 epochs on the AMD data's 247 sources (no labels);
/// the others stayed at the unigram entropy (3.33) for most of them (docs/results.md).
struct PretrainOptions {
  int epochs = 10;
  int batchSize = 8;  ///< sequences per batch
  double learningRate = 1e-2;
  uint64_t seed = 204;
  int lstmThreads = 1;  ///< as TrainOptions::lstmThreads
  /// Sequences never trained on, scored (mean next-token cross-entropy) after every epoch.
  std::vector<std::vector<int>> heldOut;
  /// After every epoch: its number (from 1), the training loss and the held-out loss (NaN
  /// without heldOut).
  std::function<void(int epoch, double trainLoss, double heldOutLoss)> epochDone;
};

/// One auxiliary input as the network reads it under `info.auxScale`.
float scaledAuxInput(const ModelInfo& info, float value);

using ProgressCallback = std::function<void(const EpochProgress&)>;

/// What `upgradeModelFile` found and did.
struct ModelUpgrade {
  int fromVersion = 0;   ///< the input file's format version
  int toVersion = 0;     ///< the version this program writes for such a file
  bool written = false;  ///< false: the input was already in that version (nothing written)
};

/// `deeptune upgrade-model`: reads `input` (any format version this program reads) and, when it
/// is not already in the version this program writes for it (a single network: 4, or 6 naming
/// measured devices; several networks or heads: 5 or 6; a language model or a predictor without
/// a network: 7, or 8 with a calibration or training programs), writes it to `output` in that
/// version. Only single networks (and format-2/3 files) can be behind. Throws ModelError for a
/// file that does not load.
ModelUpgrade upgradeModelFile(const std::string& input, const std::string& output);

/// The DeepTune network with its metadata. Deterministic for a given seed. Not thread-safe;
/// separate instances may train on separate threads.
class DeepTuneModel {
 public:
  /// A freshly initialized network (Keras default initialization drawn from `seed`).
  DeepTuneModel(ModelInfo info, uint64_t seed);
  ~DeepTuneModel();
  DeepTuneModel(DeepTuneModel&&) noexcept;
  DeepTuneModel& operator=(DeepTuneModel&&) noexcept;

  /// Loads and validates a model file; throws ModelError naming the file and the problem.
  static DeepTuneModel load(const std::string& path);
  /// Writes the model file (temporary file, then rename).
  void save(const std::string& path) const;
  /// Writes one model file of several networks (an ensemble whose probabilities predict()
  /// of InferenceModel averages), each with its boosted-tree head or none (heads empty: none);
  /// the metadata is the first network's. The networks must share their metadata's shape.
  static void saveEnsemble(const std::string& path,
                           const std::vector<const DeepTuneModel*>& networks,
                           const std::vector<std::optional<BoostedTreeHead>>& heads);

  /// Trains on `examples` (labels required) and summarizes the training curve. Throws ModelError
  /// on bad input or a NaN loss.
  TrainingSummary train(const std::vector<Example>& examples, const TrainOptions& options,
                        const ProgressCallback& progress = {});

  /// Pretrains the language model as a next-token predictor on `sequences` (token ids of this
  /// model's vocabulary; sequences of fewer than 2 tokens teach nothing), through a temporary
  /// output layer that is dropped afterwards; the heads are untouched. Returns each epoch's mean
  /// cross-entropy per predicted token. Throws ModelError when no sequence has 2 tokens or the
  /// loss is not finite.
  std::vector<double> pretrainLanguageModel(const std::vector<std::vector<int>>& sequences,
                                            const PretrainOptions& options);

  /// Transfer learning: copies the language model (embedding and both LSTM layers) of `source`,
  /// a model of any task over the same vocabulary; the heads keep their initialization. Throws
  /// ModelError when the vocabularies or network sizes differ.
  void transferLanguageModel(const DeepTuneModel& source);

  /// Main-output probabilities (normalized to sum 1) per example, in order.
  std::vector<std::vector<float>> predict(const std::vector<Example>& examples) const;

  /// The same for one example, on the single-sequence inference path (no autograd, no tensors:
  /// layer 1's input projection a table lookup, the weights laid out once on first use). Equal
  /// to predict({example}) up to float rounding (tests/test_deeptune_model.cpp). Safe to call
  /// from several threads.
  std::vector<float> predictOne(const Example& example) const;

  /// Which LSTM predict() and languageModelStates() run (train() sets it from its options; a
  /// loaded model starts with kFast). predictOne() has its own path either way.
  void setLstm(TrainOptions::Lstm lstm);

  /// The language model's last LSTM state per example (the features both heads read), in order.
  std::vector<std::vector<float>> languageModelStates(const std::vector<Example>& examples) const;

  const ModelInfo& info() const;
  /// Mutable metadata (e.g. to record the training command before saving).
  ModelInfo& info();
  int64_t trainableParameters() const;
  int64_t bufferValues() const;  ///< non-trainable values (BatchNorm statistics)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deeptune::model
