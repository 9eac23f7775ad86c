// Internal: the DeepTune network's inference for one sequence, without LibTorch.
#pragma once

#include <cstdint>
#include <vector>

#include "model/deeptune_model.hpp"
#include "model/internal/network_tensors.hpp"

namespace deeptune::model::internal {

/// The network's weights (networkTensorLayout's tensors) laid out for one sequence at a time: layer
/// 1's input projection as a table (embedding row x input weights + both biases, one row per
/// token), recurrent and layer-2 input weights transposed so each gate update is a run of
/// contiguous axpys, BatchNorm folded into a scale and shift. Computes what
/// DeepTuneNetImpl::forward does in eval mode for one row (to float rounding). Immutable after
/// construction: predict() may run on several threads.
class SingleSequenceNet {
 public:
  SingleSequenceNet(const std::vector<NamedTensor>& tensors, const ModelInfo& info);

  /// Main-output probabilities normalized to sum 1, as DeepTuneModel::predict gives them.
  std::vector<float> predict(const std::vector<int>& tokens, const std::vector<float>& aux) const;

  /// What the heads read of the LSTM: layer 2's state at the last token or its mean (the
  /// model's pooling), as DeepTuneModel::languageModelStates gives it.
  std::vector<float> pooledState(const std::vector<int>& tokens) const;

 private:
  int64_t hidden_, auxInputs_, denseSize_, outputs_, pad_, maxLength_;
  bool paperPadding_, meanPooling_;
  std::vector<float> inputTable_;             ///< [tokens + 1][4 hidden]
  std::vector<float> recurrent1T_;            ///< [hidden][4 hidden]
  std::vector<float> input2T_;                ///< [hidden][4 hidden]
  std::vector<float> recurrent2T_;            ///< [hidden][4 hidden]
  std::vector<float> bias2_;                  ///< [4 hidden]
  std::vector<float> normScale_, normShift_;  ///< [aux + hidden]
  std::vector<float> denseT_, denseBias_;     ///< [aux + hidden][dense], [dense]
  std::vector<float> outputT_, outputBias_;   ///< [dense][outputs], [outputs]
};

}  // namespace deeptune::model::internal
