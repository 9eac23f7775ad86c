// The DeepTune network in LibTorch: layers, forward pass over padded sequences, Keras init.
#include "model/internal/deeptune_net.hpp"

#include <cmath>

#include "model/internal/fast_lstm.hpp"

namespace deeptune::model::internal {
namespace {

void glorotUniform(torch::Tensor weight) {
  // LibTorch stores [out, in]; Glorot's limit is symmetric in fan-in and fan-out.
  const double limit = std::sqrt(6.0 / static_cast<double>(weight.size(0) + weight.size(1)));
  torch::nn::init::uniform_(weight, -limit, limit);
}

}  // namespace

DeepTuneNetImpl::DeepTuneNetImpl(const DeepTuneNetOptions& options) : options_(options) {
  embedding = register_module("embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(
                                               options.vocabularySize + 1, options.embeddingSize)));
  lstm = register_module(
      "lstm", torch::nn::LSTM(torch::nn::LSTMOptions(options.embeddingSize, options.lstmSize)
                                  .num_layers(2)
                                  .batch_first(true)));
  languageModelHead =
      register_module("language_model_head", torch::nn::Linear(options.lstmSize, options.outputs));
  // Keras BatchNormalization: momentum 0.99 (LibTorch counts the other way), epsilon 1e-3.
  batchNorm = register_module(
      "batch_norm",
      torch::nn::BatchNorm1d(torch::nn::BatchNormOptions(options.auxInputs + options.lstmSize)
                                 .momentum(0.01)
                                 .eps(1e-3)));
  dense = register_module(
      "dense", torch::nn::Linear(options.auxInputs + options.lstmSize, options.denseSize));
  output = register_module("output", torch::nn::Linear(options.denseSize, options.outputs));
  resetToKerasDefaults();
}

void DeepTuneNetImpl::resetToKerasDefaults() {
  torch::NoGradGuard noGrad;
  torch::nn::init::uniform_(embedding->weight, -0.05, 0.05);
  const int64_t hidden = options_.lstmSize;
  for (int layer = 0; layer < 2; ++layer) {
    const std::string suffix = "_l" + std::to_string(layer);
    auto parameters = lstm->named_parameters();
    torch::Tensor inputWeights = parameters["weight_ih" + suffix];
    torch::Tensor recurrentWeights = parameters["weight_hh" + suffix];
    glorotUniform(inputWeights);
    // Keras draws one orthogonal [hidden, 4*hidden] matrix for all four gates.
    torch::Tensor orthogonal = torch::empty({hidden, 4 * hidden});
    torch::nn::init::orthogonal_(orthogonal);
    recurrentWeights.copy_(orthogonal.t());
    parameters["bias_ih" + suffix].zero_();
    parameters["bias_hh" + suffix].zero_();
    parameters["bias_ih" + suffix].narrow(0, hidden, hidden).fill_(1.0);  // forget gate
  }
  for (auto* layer : {&languageModelHead, &dense, &output}) {
    glorotUniform((*layer)->weight);
    (*layer)->bias.zero_();
  }
}

bool DeepTuneNetImpl::usesFastLstm() const {
  return fastLstm_ && fastLstmSupports(options_.lstmSize);
}

torch::Tensor DeepTuneNetImpl::encode(const torch::Tensor& tokens, const torch::Tensor& lengths) {
  return run(tokens, lengths, options_.meanPooling ? LstmOutput::kMean : LstmOutput::kLast);
}

torch::Tensor DeepTuneNetImpl::encodeSteps(const torch::Tensor& tokens,
                                           const torch::Tensor& lengths) {
  return run(tokens, lengths, LstmOutput::kEveryStep);
}

torch::Tensor DeepTuneNetImpl::run(const torch::Tensor& tokens, const torch::Tensor& lengths,
                                   LstmOutput output) {
  if (usesFastLstm()) {
    auto parameters = lstm->named_parameters();
    const auto layer = [&](const char* suffix) {
      const std::string s(suffix);
      return LstmLayerWeights{parameters["weight_ih" + s], parameters["weight_hh" + s],
                              parameters["bias_ih" + s], parameters["bias_hh" + s]};
    };
    return fastLstmEncode(embedding->weight, layer("_l0"), layer("_l1"), tokens, lengths,
                          fastLstmThreads_, output);
  }
  // Sequences are left-aligned (padding after them) and each one's state is read at its own
  // last step, before any padding: pad steps never change a result, and no gradient flows
  // through them. (LibTorch's packed-sequence LSTM would do the same, but its CPU backward
  // pass is ~180x slower than this.)
  const torch::Tensor outputs = std::get<0>(lstm->forward(embedding->forward(tokens)));
  if (output != LstmOutput::kLast) {
    const torch::Tensor steps = torch::arange(outputs.size(1), torch::kInt64).unsqueeze(0);
    const torch::Tensor mask = (steps < lengths.unsqueeze(1)).to(torch::kFloat32).unsqueeze(2);
    if (output == LstmOutput::kEveryStep) return outputs * mask;
    return (outputs * mask).sum(1) / lengths.to(torch::kFloat32).unsqueeze(1);
  }
  const torch::Tensor last = (lengths - 1).view({-1, 1, 1}).expand({-1, 1, outputs.size(2)});
  return outputs.gather(1, last).squeeze(1);
}

DeepTuneOutputs DeepTuneNetImpl::forward(const torch::Tensor& tokens, const torch::Tensor& lengths,
                                         const torch::Tensor& rowSource, const torch::Tensor& aux) {
  const torch::Tensor rows = encode(tokens, lengths).index_select(0, rowSource);
  DeepTuneOutputs outputs;
  outputs.languageModel = torch::sigmoid(languageModelHead->forward(rows));
  const torch::Tensor joined = options_.auxInputs > 0 ? torch::cat({aux, rows}, 1) : rows;
  const torch::Tensor hidden = torch::relu(dense->forward(batchNorm->forward(joined)));
  outputs.main = torch::sigmoid(output->forward(hidden));
  return outputs;
}

}  // namespace deeptune::model::internal
