// One-sequence inference of the DeepTune network: a table lookup, two recurrent loops, the head.
#include "model/internal/single_sequence_net.hpp"

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

/// gates += W h for W given transposed, `wt` [hidden][4 hidden] (4 hidden a multiple of 8).
inline __attribute__((always_inline)) void addProduct(float* gates, const float* wt, const float* h,
                                                      int64_t hidden) {
  const int64_t width = 4 * hidden;
  for (int64_t k = 0; k < hidden; ++k) {
    const Floats8 x = broadcast8(h[k]);
    const float* row = wt + k * width;
    for (int64_t i = 0; i < width; i += kLanes) {
      store8(gates + i, load8(gates + i) + x * load8(row + i));
    }
  }
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

/// Both LSTM layers over `sequence`, step by step; the last state of layer 2 into `h2`. Built for
/// AVX2 as well as the baseline x86-64 and picked at load time: the products are axpys over
/// the 4 x hidden gate values, which the wider vectors speed up.
__attribute__((target_clones("avx2", "default"))) void runLayers(
    const int64_t* sequence, int64_t steps, int64_t hidden, const float* inputTable,
    const float* recurrent1T, const float* input2T, const float* recurrent2T, const float* bias2,
    float* h2) {
  const int64_t width = 4 * hidden;
  std::vector<float> h1(hidden, 0.0f), c1(hidden, 0.0f), c2(hidden, 0.0f), gates(width);
  for (int64_t t = 0; t < steps; ++t) {
    const float* row = inputTable + sequence[t] * width;
    std::copy(row, row + width, gates.begin());
    addProduct(gates.data(), recurrent1T, h1.data(), hidden);
    cell(gates.data(), c1.data(), h1.data(), hidden);
    std::copy(bias2, bias2 + width, gates.begin());
    addProduct(gates.data(), input2T, h1.data(), hidden);
    addProduct(gates.data(), recurrent2T, h2, hidden);
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
