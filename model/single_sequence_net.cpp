// One-sequence inference of the DeepTune network: a table lookup, two recurrent loops, the head.
#include "model/internal/single_sequence_net.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace deeptune::model::internal {
namespace {

/// A tensor's values as floats in row-major order.
std::vector<float> values(const torch::Tensor& tensor) {
  const torch::Tensor flat = tensor.detach().to(torch::kFloat32).contiguous().view({-1});
  return std::vector<float>(flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
}

/// [rows, cols] -> its transpose's values, [cols][rows].
std::vector<float> transposed(const torch::Tensor& matrix) { return values(matrix.t()); }

/// out[0..n) += x * row[0..n): the inner step of a transposed matrix-vector product.
inline void axpy(float* out, const float* row, float x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] += x * row[i];
}

/// gates += W^T' h for a transposed weight matrix `wt` [hidden][4 hidden].
inline void addProduct(float* gates, const std::vector<float>& wt, const float* h, int64_t hidden) {
  const int64_t width = 4 * hidden;
  for (int64_t k = 0; k < hidden; ++k) axpy(gates, wt.data() + k * width, h[k], width);
}

inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

/// LibTorch's LSTM cell on gates (i, f, g, o): updates c and h in place.
inline void cell(const float* gates, float* c, float* h, int64_t hidden) {
  for (int64_t j = 0; j < hidden; ++j) {
    const float i = sigmoid(gates[j]);
    const float f = sigmoid(gates[hidden + j]);
    const float g = std::tanh(gates[2 * hidden + j]);
    const float o = sigmoid(gates[3 * hidden + j]);
    c[j] = f * c[j] + i * g;
    h[j] = o * std::tanh(c[j]);
  }
}

}  // namespace

SingleSequenceNet::SingleSequenceNet(DeepTuneNetImpl& net, const ModelInfo& info)
    : hidden_(net.options().lstmSize),
      auxInputs_(net.options().auxInputs),
      denseSize_(net.options().denseSize),
      outputs_(net.options().outputs),
      pad_(static_cast<int64_t>(info.vocabulary.size())),
      maxLength_(info.maxLength),
      paperPadding_(info.paperPadding) {
  torch::NoGradGuard noGrad;
  auto p = net.lstm->named_parameters();
  const torch::Tensor table =
      torch::mm(net.embedding->weight, p["weight_ih_l0"].t()) + p["bias_ih_l0"] + p["bias_hh_l0"];
  inputTable_ = values(table);
  recurrent1T_ = transposed(p["weight_hh_l0"]);
  input2T_ = transposed(p["weight_ih_l1"]);
  recurrent2T_ = transposed(p["weight_hh_l1"]);
  bias2_ = values(p["bias_ih_l1"] + p["bias_hh_l1"]);
  const auto& bn = net.batchNorm;
  const torch::Tensor scale = bn->weight / torch::sqrt(bn->running_var + bn->options.eps());
  normScale_ = values(scale);
  normShift_ = values(bn->bias - bn->running_mean * scale);
  denseT_ = transposed(net.dense->weight);
  denseBias_ = values(net.dense->bias);
  outputT_ = transposed(net.output->weight);
  outputBias_ = values(net.output->bias);
}

std::vector<float> SingleSequenceNet::predict(const std::vector<int>& tokens,
                                              const std::vector<float>& aux) const {
  if (static_cast<int64_t>(aux.size()) != auxInputs_) {
    throw std::invalid_argument("single-sequence inference: " + std::to_string(aux.size()) +
                                " auxiliary inputs, the network has " + std::to_string(auxInputs_));
  }
  // The sequence the batch path reads (DeepTuneModel's makeBatch): pre-padded to maxLength for
  // a paper-padded model, else the tokens (a lone pad token for an empty one).
  std::vector<int64_t> sequence;
  const int64_t count = static_cast<int64_t>(tokens.size());
  if (paperPadding_)
    sequence.assign(static_cast<size_t>(std::max<int64_t>(0, maxLength_ - count)), pad_);
  sequence.insert(sequence.end(), tokens.begin(), tokens.end());
  if (sequence.empty()) sequence.push_back(pad_);

  const int64_t h = hidden_, width = 4 * hidden_;
  std::vector<float> h1(h, 0.0f), c1(h, 0.0f), h2(h, 0.0f), c2(h, 0.0f), gates(width);
  for (int64_t token : sequence) {
    const float* row = inputTable_.data() + token * width;
    std::copy(row, row + width, gates.begin());
    addProduct(gates.data(), recurrent1T_, h1.data(), h);
    cell(gates.data(), c1.data(), h1.data(), h);
    std::copy(bias2_.begin(), bias2_.end(), gates.begin());
    addProduct(gates.data(), input2T_, h1.data(), h);
    addProduct(gates.data(), recurrent2T_, h2.data(), h);
    cell(gates.data(), c2.data(), h2.data(), h);
  }

  // Head: concat(aux, h) -> BatchNorm -> Dense(relu) -> Dense(sigmoid), normalized.
  std::vector<float> joined(aux.begin(), aux.end());
  joined.insert(joined.end(), h2.begin(), h2.end());
  std::vector<float> dense(denseBias_);
  for (size_t k = 0; k < joined.size(); ++k) {
    const float x = joined[k] * normScale_[k] + normShift_[k];
    axpy(dense.data(), denseT_.data() + static_cast<int64_t>(k) * denseSize_, x, denseSize_);
  }
  std::vector<float> out(outputBias_);
  for (int64_t k = 0; k < denseSize_; ++k) {
    axpy(out.data(), outputT_.data() + k * outputs_, std::max(0.0f, dense[k]), outputs_);
  }
  float sum = 0;
  for (float& v : out) sum += (v = sigmoid(v));
  for (float& v : out) v /= sum;
  return out;
}

}  // namespace deeptune::model::internal
