// One-sequence inference of the DeepTune network: a table lookup, two recurrent loops, the head.
#include "model/internal/single_sequence_net.hpp"

#include "model/internal/matrix_products.hpp"
#include "model/internal/vector_math.hpp"
#include "model/model_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace deeptune::model::internal {
namespace {

/// A [rows][cols] tensor's values transposed: [cols][rows].
std::vector<float> transposed(const NamedTensor& matrix) {
  const int64_t rows = matrix.shape.at(0), cols = matrix.shape.at(1);
  std::vector<float> out(matrix.values.size());
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) out[c * rows + r] = matrix.values[r * cols + c];
  }
  return out;
}

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

/// A thread's buffers for runLayers, kept from call to call (a 1024-token kernel's layer-2 inputs
/// are 1 MiB: allocated afresh, every call paid for mapping and zeroing them).
struct LayerBuffers {
  std::vector<float> c1, c2, gates, h1, input2, h2Sum;
};

LayerBuffers& threadBuffers() {
  thread_local LayerBuffers buffers;
  return buffers;
}

/// Both LSTM layers over `sequence`; the last state of layer 2 into `h2` (or, with
/// `meanPooling`, the mean of its states over the steps). Layer 1 runs step by
/// step, then layer 2's input projection of every step is one product (each weight row loaded
/// once for four steps rather than once per step), then layer 2's recurrence. The products are
/// addRowProducts' (the gate sums held in registers over each block of columns); the gate
/// arithmetic is built for AVX2 as well as the baseline x86-64, picked at load time.
__attribute__((target_clones("avx2", "default"))) void runLayers(
    const int64_t* sequence, int64_t steps, int64_t hidden, const float* inputTable,
    const float* recurrent1T, const float* input2T, const float* recurrent2T, const float* bias2,
    float* h2, bool meanPooling, LayerBuffers& buffers) {
  const int64_t width = 4 * hidden;
  auto& [c1, c2, gates, h1, input2, h2Sum] = buffers;
  h2Sum.assign(meanPooling ? static_cast<size_t>(hidden) : 0, 0.0f);
  c1.assign(static_cast<size_t>(hidden), 0.0f);
  c2.assign(static_cast<size_t>(hidden), 0.0f);
  gates.resize(static_cast<size_t>(width));
  h1.resize(static_cast<size_t>((steps + 1) * hidden));  // h1 before step t: row t
  std::fill(h1.begin(), h1.begin() + hidden, 0.0f);
  input2.resize(static_cast<size_t>(steps * width));
  for (int64_t t = 0; t < steps; ++t) {
    const float* row = inputTable + sequence[t] * width;
    std::copy(row, row + width, gates.begin());
    addRowProducts(gates.data(), h1.data() + t * hidden, recurrent1T, 1, hidden, width);
    cell(gates.data(), c1.data(), h1.data() + (t + 1) * hidden, hidden);
  }
  for (int64_t t = 0; t < steps; ++t) std::copy(bias2, bias2 + width, input2.begin() + t * width);
  addRowProducts(input2.data(), h1.data() + hidden, input2T, steps, hidden, width);
  for (int64_t t = 0; t < steps; ++t) {
    std::copy(input2.begin() + t * width, input2.begin() + (t + 1) * width, gates.begin());
    addRowProducts(gates.data(), h2, recurrent2T, 1, hidden, width);
    cell(gates.data(), c2.data(), h2, hidden);
    if (meanPooling) {
      for (int64_t j = 0; j < hidden; ++j) h2Sum[static_cast<size_t>(j)] += h2[j];
    }
  }
  if (meanPooling) {
    for (int64_t j = 0; j < hidden; ++j)
      h2[j] = h2Sum[static_cast<size_t>(j)] / static_cast<float>(steps);
  }
}

/// Frees the buffers of a sequence of over 4096 steps (a model of such a length) instead of
/// keeping them for the thread's next call. (Not in runLayers: Clang does not emit the vector
/// code that only a function's target clones use.)
void releaseLargeBuffers(LayerBuffers& buffers) {
  constexpr size_t kKeptFloats = size_t{1} << 20;  // 4 MiB
  if (buffers.input2.capacity() > kKeptFloats) buffers.input2 = std::vector<float>();
  if (buffers.h1.capacity() > kKeptFloats) buffers.h1 = std::vector<float>();
}

}  // namespace

SingleSequenceNet::SingleSequenceNet(const std::vector<NamedTensor>& tensors, const ModelInfo& info)
    : pad_(static_cast<int64_t>(info.vocabulary.size())),
      maxLength_(info.maxLength),
      paperPadding_(info.paperPadding),
      meanPooling_(info.pooling == "mean") {
  const auto tensor = [&](const std::string& name) -> const NamedTensor& {
    return tensorNamed(tensors, name);
  };
  const NamedTensor& embedding = tensor("embedding.weight");
  const NamedTensor& input1 = tensor("lstm.weight_ih_l0");
  hidden_ = tensor("lstm.weight_hh_l0").shape.at(1);
  auxInputs_ = tensor("batch_norm.weight").shape.at(0) - hidden_;
  denseSize_ = tensor("dense.weight").shape.at(0);
  outputs_ = tensor("output.weight").shape.at(0);
  if (hidden_ % kLanes != 0) {
    throw ModelError(
        "single-sequence inference needs an LSTM size that is a multiple "
        "of 8, not " +
        std::to_string(hidden_));
  }
  // Layer 1's input projection of every token: embedding row x input weights + both biases.
  const int64_t width = 4 * hidden_, tokens = embedding.shape.at(0), inner = embedding.shape.at(1);
  const std::vector<float>& biasIn1 = tensor("lstm.bias_ih_l0").values;
  const std::vector<float>& biasRec1 = tensor("lstm.bias_hh_l0").values;
  // The embedding times the transposed input weights through the recurrent products' kernel
  // (this product was most of a model load's 5.5 ms; issue 31).
  const std::vector<float> input1T = transposed(input1);
  inputTable_.assign(static_cast<size_t>(tokens * width), 0.0f);
  addRowProducts(inputTable_.data(), embedding.values.data(), input1T.data(), tokens, inner, width);
  for (int64_t v = 0; v < tokens; ++v) {
    float* row = inputTable_.data() + v * width;
    for (int64_t g = 0; g < width; ++g) row[g] = row[g] + biasIn1[g] + biasRec1[g];
  }
  recurrent1T_ = transposed(tensor("lstm.weight_hh_l0"));
  input2T_ = transposed(tensor("lstm.weight_ih_l1"));
  recurrent2T_ = transposed(tensor("lstm.weight_hh_l1"));
  const std::vector<float>& biasIn2 = tensor("lstm.bias_ih_l1").values;
  const std::vector<float>& biasRec2 = tensor("lstm.bias_hh_l1").values;
  for (int64_t g = 0; g < width; ++g) bias2_.push_back(biasIn2[g] + biasRec2[g]);
  // BatchNorm in eval mode as a scale and a shift.
  const std::vector<float>& weight = tensor("batch_norm.weight").values;
  const std::vector<float>& bias = tensor("batch_norm.bias").values;
  const std::vector<float>& mean = tensor("batch_norm.running_mean").values;
  const std::vector<float>& variance = tensor("batch_norm.running_var").values;
  for (size_t k = 0; k < weight.size(); ++k) {
    const float scale = weight[k] / std::sqrt(variance[k] + static_cast<float>(kBatchNormEpsilon));
    normScale_.push_back(scale);
    normShift_.push_back(bias[k] - mean[k] * scale);
  }
  denseT_ = transposed(tensor("dense.weight"));
  denseBias_ = tensor("dense.bias").values;
  outputT_ = transposed(tensor("output.weight"));
  outputBias_ = tensor("output.bias").values;
}

std::vector<float> SingleSequenceNet::pooledState(const std::vector<int>& tokens) const {
  // The sequence the batch path reads (DeepTuneModel's makeBatch): pre-padded to maxLength for
  // a paper-padded model, else the tokens (a lone pad token for an empty one).
  std::vector<int64_t> sequence;
  const int64_t count = static_cast<int64_t>(tokens.size());
  if (paperPadding_)
    sequence.assign(static_cast<size_t>(std::max<int64_t>(0, maxLength_ - count)), pad_);
  sequence.insert(sequence.end(), tokens.begin(), tokens.end());
  if (sequence.empty()) sequence.push_back(pad_);

  std::vector<float> h2(static_cast<size_t>(hidden_), 0.0f);
  LayerBuffers& buffers = threadBuffers();
  runLayers(sequence.data(), static_cast<int64_t>(sequence.size()), hidden_, inputTable_.data(),
            recurrent1T_.data(), input2T_.data(), recurrent2T_.data(), bias2_.data(), h2.data(),
            meanPooling_, buffers);
  releaseLargeBuffers(buffers);
  return h2;
}

std::vector<float> SingleSequenceNet::predict(const std::vector<int>& tokens,
                                              const std::vector<float>& aux) const {
  if (static_cast<int64_t>(aux.size()) != auxInputs_) {
    throw ModelError("single-sequence inference: " + std::to_string(aux.size()) +
                     " auxiliary inputs, the network has " + std::to_string(auxInputs_));
  }
  const std::vector<float> h2 = pooledState(tokens);

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
