// Internal: the DeepTune network of SPEC.md §3 as a LibTorch module (never in public headers).
#pragma once

#include <torch/torch.h>

#include "model/internal/fast_lstm.hpp"

namespace deeptune::model::internal {

/// Sizes of the network; defaults are the paper's.
struct DeepTuneNetOptions {
  int64_t vocabularySize = 128;  ///< tokens; the embedding has one more row (the pad value)
  int64_t embeddingSize = 64;
  int64_t lstmSize = 64;  ///< hidden size of each of the two LSTM layers
  int64_t auxInputs = 2;  ///< transfer, wgsize (0 for thread coarsening)
  int64_t denseSize = 32;
  int64_t outputs = 2;  ///< CPU/GPU, or the 6 coarsening factors
  /// h is layer 2's state at the sequence's last step (the paper's) or, true, its mean over the
  /// sequence's steps.
  bool meanPooling = false;
};

/// Outputs for each row: the main decision and the language model's auxiliary output, both
/// after the sigmoid (Keras' Dense(activation=sigmoid)).
struct DeepTuneOutputs {
  torch::Tensor main;
  torch::Tensor languageModel;
};

/// Embedding -> LSTM(64) -> LSTM(64) -> h; LM head Dense(outputs) on h; concat(aux, h) ->
/// BatchNorm -> Dense(32, relu) -> Dense(outputs). Submodule names are the model file's keys.
class DeepTuneNetImpl : public torch::nn::Module {
 public:
  explicit DeepTuneNetImpl(const DeepTuneNetOptions& options);

  /// `tokens` [S, T] int64 sequences, left-aligned and padded after their `lengths` [S] (the
  /// paper's pre-padded input is a left-aligned sequence of full length); `rowSource` [R] says
  /// which sequence each row uses (rows sharing a source share one LSTM pass); `aux` [R,
  /// auxInputs].
  DeepTuneOutputs forward(const torch::Tensor& tokens, const torch::Tensor& lengths,
                          const torch::Tensor& rowSource, const torch::Tensor& aux);

  /// The language model's state h for each sequence (last or mean, options().meanPooling):
  /// [S, lstmSize].
  torch::Tensor encode(const torch::Tensor& tokens, const torch::Tensor& lengths);
  /// Layer 2's state at every step, [S, T, lstmSize], zero after each sequence's length (what a
  /// next-token head reads).
  torch::Tensor encodeSteps(const torch::Tensor& tokens, const torch::Tensor& lengths);

  /// Keras 2.0 default initialization (uniform embedding, Glorot/orthogonal LSTM with forget
  /// bias 1, Glorot dense layers with zero bias).
  void resetToKerasDefaults();

  const DeepTuneNetOptions& options() const { return options_; }

  /// encode() through the hand-written LSTM (internal/fast_lstm.hpp; the default where it
  /// supports the size) or through LibTorch's nn::LSTM (the reference). Same function, same
  /// parameters.
  void useFastLstm(bool fast) { fastLstm_ = fast; }
  /// Threads of the hand-written LSTM's loops (the result does not depend on them).
  void setFastLstmThreads(int threads) { fastLstmThreads_ = threads; }
  bool usesFastLstm() const;

  torch::nn::Embedding embedding{nullptr};
  torch::nn::LSTM lstm{nullptr};
  torch::nn::Linear languageModelHead{nullptr};
  torch::nn::BatchNorm1d batchNorm{nullptr};
  torch::nn::Linear dense{nullptr};
  torch::nn::Linear output{nullptr};

 private:
  torch::Tensor run(const torch::Tensor& tokens, const torch::Tensor& lengths, LstmOutput output);

  DeepTuneNetOptions options_;
  bool fastLstm_ = true;
  int fastLstmThreads_ = 1;
};
TORCH_MODULE(DeepTuneNet);

}  // namespace deeptune::model::internal
