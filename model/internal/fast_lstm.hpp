// Internal: the network's two LSTM layers by hand, forward and backward through time.
#pragma once

#include <torch/torch.h>

namespace deeptune::model::internal {

/// One layer's parameters as LibTorch's nn::LSTM holds them (gates in the order i, f, g, o).
struct LstmLayerWeights {
  torch::Tensor input;          ///< weight_ih [4 hidden, inputs]
  torch::Tensor recurrent;      ///< weight_hh [4 hidden, hidden]
  torch::Tensor inputBias;      ///< bias_ih [4 hidden]
  torch::Tensor recurrentBias;  ///< bias_hh [4 hidden]
};

/// What fastLstmEncode returns of layer 2's states: each sequence's state at its last step or
/// their mean over its steps, [S, hidden]; or the state at every step, [S, T, hidden], zero
/// after each sequence's end (a language model's input).
enum class LstmOutput { kLast, kMean, kEveryStep };

/// Whether fastLstmEncode handles a network of this hidden size (its products work on blocks
/// of 32 floats).
bool fastLstmSupports(int64_t hidden);

/// What DeepTuneNetImpl::encode computes through nn::LSTM: layer 2's state h at each sequence's
/// last step, [S, hidden], for `tokens` [S, T] (int64, left-aligned) of `lengths` [S] (each in
/// 1..T) embedded by `embedding` [vocabulary + 1, inputs]. An autograd function with a
/// hand-written backward pass: layer 1's input projection is a table of one row per token,
/// only the recurrent products and the gates run step by step (over the sequences still
/// running, longest first), and each weight gradient is one product after the loop. The loops
/// run on `threads` threads (each taking every n-th sequence); the result is the same, bit for
/// bit, for any number. `output` chooses what of layer 2's states it returns.
torch::Tensor fastLstmEncode(const torch::Tensor& embedding, const LstmLayerWeights& layer1,
                             const LstmLayerWeights& layer2, const torch::Tensor& tokens,
                             const torch::Tensor& lengths, int threads = 1,
                             LstmOutput output = LstmOutput::kLast);

}  // namespace deeptune::model::internal
