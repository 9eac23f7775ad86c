// Internal: the model file read and written without LibTorch: magic line with the checksum of
// the rest, a JSON header (metadata, declared inputs, the weights' layout), the weights.
#pragma once

#include <string>
#include <vector>

#include "model/deeptune_model.hpp"
#include "model/internal/network_tensors.hpp"

namespace deeptune::model::internal {

/// The format this program writes. It reads 4 and 3 everywhere (the same weights; 4's checksum is
/// XXH3-64, 3's data::legacy64) and 2 (weights as a LibTorch archive) only where LibTorch is
/// linked (DeepTuneModel::load).
constexpr int kModelFormatVersion = 4;

/// A model file's contents, checked.
struct ModelFile {
  ModelInfo info;
  int formatVersion = 0;
  std::string torchArchive;          ///< version 2: the weights as a LibTorch archive
  std::vector<NamedTensor> tensors;  ///< versions 3, 4: networkTensorLayout(info)'s, with values
};

/// Reads and checks `path` (at most data::kMaxModelFileBytes): checksum, header, metadata, and for
/// versions 3 and 4 that the weights are exactly the network's tensors, all finite. Throws
/// ModelError starting with `path`.
ModelFile readModelFile(const std::string& path);

/// Throws ModelError starting with `path` when a weight of `tensors` is NaN or infinite (a model
/// that predicts NaN probabilities, whatever its checksum).
void requireFiniteWeights(const std::vector<NamedTensor>& tensors, const std::string& path);

/// Writes `info` and `tensors` (networkTensorLayout(info)'s, with values) as a version-4 file,
/// atomically (nothing half-written). Throws ModelError (also for a non-finite weight).
void writeModelFile(const std::string& path, const ModelInfo& info,
                    const std::vector<NamedTensor>& tensors);

}  // namespace deeptune::model::internal
