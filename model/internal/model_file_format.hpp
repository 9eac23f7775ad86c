// Internal: the model file read and written without LibTorch: magic line with the checksum of
// the rest, a JSON header (metadata, declared inputs, the weights' layout), the weights.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/boosted_tree_head.hpp"
#include "model/deeptune_model.hpp"
#include "model/internal/network_tensors.hpp"

namespace deeptune::model::internal {

/// The newest format this program writes: 8 for a predictor whose probability is calibrated
/// (ModelInfo::calibration) or that keeps its training programs (ModelInfo::trainingPrograms), 7
/// for a predictor without a network (ModelInfo::method "source-boosted" or "fixed-factor") and a
/// pretrained language model, 6 for a model whose labels name measured devices
/// (ModelInfo::deviceNames), 5 for a file of several networks or with boosted-tree heads, else 4
/// (which older versions of deeptune also read): each file the oldest version that holds it. It
/// reads 8 to 3 everywhere (the same weights; the checksum of 4 and up is XXH3-64, 3's
/// data::legacy64) and 2 (weights as a LibTorch archive) only where LibTorch is linked
/// (DeepTuneModel::load).
constexpr int kModelFormatVersion = 8;
constexpr int kPredictorFormatVersion = 7;
constexpr int kMeasuredDevicesFormatVersion = 6;
constexpr int kEnsembleFormatVersion = 5;
constexpr int kSingleNetworkFormatVersion = 4;

/// One network of a model file (networkTensorLayout(info)'s tensors, with values) and, in
/// formats 5 and 6, its optional boosted-tree head.
struct ModelMember {
  std::vector<NamedTensor> tensors;
  std::optional<BoostedTreeHead> head;
};

/// Whether a file of this method holds networks: "deeptune", and "language-model" (format 7: a
/// pretrained embedding and LSTM whose heads are their fresh initialization, for fine-tuning).
bool holdsNetworks(const ModelInfo& info);

/// A model file's contents, checked.
struct ModelFile {
  ModelInfo info;
  int formatVersion = 0;
  std::string torchArchive;             ///< version 2: the weights as a LibTorch archive
  std::vector<ModelMember> members;     ///< versions 3 to 7: one or more (info.networks); none
                                        ///< for a predictor without a network
  std::vector<BoostedTreeHead> forest;  ///< source-boosted: the models whose mean answers
};

/// Reads and checks `path` (at most data::kMaxModelFileBytes): checksum, header, metadata, and for
/// versions 3 to 6 that the weights are exactly the networks' tensors, all finite, and each head
/// fits its network. Throws ModelError starting with `path`.
ModelFile readModelFile(const std::string& path);

/// Throws ModelError starting with `path` when a weight of `tensors` is NaN or infinite (a model
/// that predicts NaN probabilities, whatever its checksum).
void requireFiniteWeights(const std::vector<NamedTensor>& tensors, const std::string& path);

/// The format version this program writes for a file of `info` with `networks` networks (0 for
/// a predictor without a network), `heads` saying whether any has a boosted-tree head: the
/// oldest version that holds it (see kModelFormatVersion).
int formatVersionFor(const ModelInfo& info, size_t networks, bool heads);

/// Writes `info` and `members` (1 to 64) atomically (nothing half-written): version 6 for a model
/// that names measured devices (ModelInfo::deviceNames), else 4 for one network without a head,
/// else 5; 7 for a language model. Throws ModelError (also for a non-finite weight or a head that
/// checkBoostedTreeHead refuses or that does not read the network's state and inputs).
void writeModelFile(const std::string& path, const ModelInfo& info,
                    const std::vector<ModelMember>& members);

/// Writes a predictor without a network (format 7; 8 with a calibration or training programs):
/// `info.method` "source-boosted" with its
/// `forest` (1 to 64 boosted-tree models over info.sourceFeatures rows) or "fixed-factor" (no
/// forest). Atomic; throws ModelError for metadata or trees that do not fit.
void writePredictorFile(const std::string& path, const ModelInfo& info,
                        const std::vector<BoostedTreeHead>& forest);

}  // namespace deeptune::model::internal
