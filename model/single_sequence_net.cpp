// One-sequence inference of the DeepTune network: a table lookup, two recurrent loops, the head.
#include "model/internal/single_sequence_net.hpp"

#include "model/internal/matrix_products.hpp"
#include "model/internal/vector_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

/// LibTorch's LSTM cell on gates (i, f, g, o): updates c and h in place (hidden a multiple of 8).
inline __attribute__((always_inline)) void cell(const float* gates, float* c, float* h,
                                                int64_t hidden) {
  for (int64_t j = 0; j < hidden; j += kLanes) {
    const Floats8 i = sigmoid8(load8(gates + j));
    const Floats8 f = sigmoid8(load8(gates + hidden + j));
    const Floats8 g = tanh8(load8(gates + 2 * hidden + j));
    const Floats8 o = sigmoid8(load8(gates + 3 * hidden + j));
    const Floats8 next = f * load8(c + j) + i * g;
    store8(c + j, next);
    store8(h + j, o * tanh8(next));
  }
}

/// Both LSTM layers over `sequence`; the last state of layer 2 into `h2`. Layer 1 runs step by
/// step, then layer 2's input projection of every step is one product (each weight row loaded
/// once for four steps rather than once per step), then layer 2's recurrence. The products are
/// addRowProducts' (the gate sums held in registers over each block of columns); the gate
/// arithmetic is built for AVX2 as well as the baseline x86-64, picked at load time.
__attribute__((target_clones("avx2", "default"))) void runLayers(
    const int64_t* sequence, int64_t steps, int64_t hidden, const float* inputTable,
    const float* recurrent1T, const float* input2T, const float* recurrent2T, const float* bias2,
    float* h2) {
  const int64_t width = 4 * hidden;
  std::vector<float> c1(hidden, 0.0f), c2(hidden, 0.0f), gates(width);
  std::vector<float> h1(static_cast<size_t>((steps + 1) * hidden),
                        0.0f);  // h1 before step t: row t
  for (int64_t t = 0; t < steps; ++t) {
    const float* row = inputTable + sequence[t] * width;
    std::copy(row, row + width, gates.begin());
    addRowProducts(gates.data(), h1.data() + t * hidden, recurrent1T, 1, hidden, width);
    cell(gates.data(), c1.data(), h1.data() + (t + 1) * hidden, hidden);
  }
  std::vector<float> input2(static_cast<size_t>(steps * width));
  for (int64_t t = 0; t < steps; ++t) std::copy(bias2, bias2 + width, input2.begin() + t * width);
  addRowProducts(input2.data(), h1.data() + hidden, input2T, steps, hidden, width);
  for (int64_t t = 0; t < steps; ++t) {
    std::copy(input2.begin() + t * width, input2.begin() + (t + 1) * width, gates.begin());
    addRowProducts(gates.data(), h2, recurrent2T, 1, hidden, width);
    cell(gates.data(), c2.data(), h2, hidden);
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
  if (hidden_ % kLanes != 0) {
    throw std::invalid_argument(
        "single-sequence inference needs an LSTM size that is a multiple "
        "of 8, not " +
        std::to_string(hidden_));
  }
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

  std::vector<float> h2(static_cast<size_t>(hidden_), 0.0f);
  runLayers(sequence.data(), static_cast<int64_t>(sequence.size()), hidden_, inputTable_.data(),
            recurrent1T_.data(), input2T_.data(), recurrent2T_.data(), bias2_.data(), h2.data());

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
