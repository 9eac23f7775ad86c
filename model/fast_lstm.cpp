// The network's two LSTM layers by hand: a step-major layout, forward and backward through time.
#include "model/internal/fast_lstm.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "data/parallel_for.hpp"
#include "model/compute_environment.hpp"
#include "model/internal/matrix_products.hpp"
#include "model/internal/vector_math.hpp"
#include "model/model_error.hpp"

namespace deeptune::model::internal {
namespace {

using torch::Tensor;

/// Sequences ranked by length, longest first. At step t the first active[t] ranks are still
/// running; their rows of that step are rows offset[t] .. offset[t] + active[t] of every
/// step-major [rows, ...] buffer, so a sequence that ended takes no work and no memory.
struct StepLayout {
  std::vector<int64_t> order;   ///< sequence index of each rank
  std::vector<int64_t> length;  ///< steps of each rank
  std::vector<int64_t> active;  ///< ranks running at each step, then a final 0
  std::vector<int64_t> offset;  ///< first row of each step, then the number of rows
  int64_t steps() const { return static_cast<int64_t>(active.size()) - 1; }
  int64_t rows() const { return offset.back(); }
};

StepLayout layoutOf(const Tensor& lengths, int64_t width) {
  StepLayout layout;
  const Tensor flat = lengths.to(torch::kInt64).contiguous();
  const int64_t* given = flat.data_ptr<int64_t>();
  const int64_t count = flat.numel();
  layout.order.resize(static_cast<size_t>(count));
  std::iota(layout.order.begin(), layout.order.end(), int64_t{0});
  std::stable_sort(layout.order.begin(), layout.order.end(),
                   [given](int64_t a, int64_t b) { return given[a] > given[b]; });
  for (int64_t sequence : layout.order) {
    layout.length.push_back(std::clamp<int64_t>(given[sequence], 1, width));
  }
  const int64_t steps = count > 0 ? layout.length.front() : 0;
  layout.active.assign(static_cast<size_t>(steps + 1), 0);
  layout.offset.assign(static_cast<size_t>(steps + 1), 0);
  int64_t running = count;
  for (int64_t t = 0; t < steps; ++t) {
    while (running > 0 && layout.length[static_cast<size_t>(running - 1)] <= t) --running;
    layout.active[static_cast<size_t>(t)] = running;
    layout.offset[static_cast<size_t>(t + 1)] = layout.offset[static_cast<size_t>(t)] + running;
  }
  return layout;
}

Tensor indexTensor(const std::vector<int64_t>& values) {
  return torch::tensor(values, torch::kInt64);
}

/// The sequences (ranks) one thread of a layer's loop takes: every `parts`-th from `part`. A
/// sequence's steps depend only on its own earlier steps, so the threads never wait on each
/// other inside a loop, and each row's arithmetic is the same for any number of threads.
struct RankShare {
  int64_t part = 0;
  int64_t parts = 1;
  /// Of the first `ranks` ranks, how many are this share's.
  int64_t count(int64_t ranks) const {
    return ranks > part ? (ranks - part + parts - 1) / parts : 0;
  }
};

/// Runs `loop(share)` for each of `parts` shares, on `parts` threads (the caller's among them;
/// data::parallelFor). A share's work does not depend on the thread that runs it.
template <typename Loop>
void onThreads(int64_t parts, const Loop& loop) {
  if (parts <= 1) return loop(RankShare{});
  data::parallelFor(static_cast<size_t>(parts), static_cast<int>(parts), [&](size_t part) {
    loop(RankShare{static_cast<int64_t>(part), parts});
  });
}

/// One step of the cell for `rows` rows, `stride` rows apart in every array: `gates` [.][4
/// hidden] in as pre-activations, out as the gates' values; c = f c_prev + i g (c_prev absent at
/// step 0), h = o tanh(c).
__attribute__((target_clones("arch=x86-64-v3", "default"))) void cellForward(
    float* gates, const float* cPrev, float* c, float* h, int64_t rows, int64_t stride,
    int64_t hidden) {
  for (int64_t r = 0; r < rows; ++r) {
    float* g = gates + r * stride * 4 * hidden;
    const int64_t at = r * stride * hidden;
    for (int64_t j = 0; j < hidden; j += kLanes) {
      const Floats8 i = sigmoid8(load8(g + j));
      const Floats8 f = sigmoid8(load8(g + hidden + j));
      const Floats8 u = tanh8(load8(g + 2 * hidden + j));
      const Floats8 o = sigmoid8(load8(g + 3 * hidden + j));
      store8(g + j, i), store8(g + hidden + j, f), store8(g + 2 * hidden + j, u);
      store8(g + 3 * hidden + j, o);
      const Floats8 previous = cPrev != nullptr ? load8(cPrev + at + j) : Floats8{};
      const Floats8 next = f * previous + i * u;
      store8(c + at + j, next);
      store8(h + at + j, o * tanh8(next));
    }
  }
}

/// The cell's backward step for `rows` rows (`stride` rows apart in gates, c, cPrev and dz;
/// contiguous in dh and dc): from dh (the whole gradient reaching h) and dc (the gradient
/// reaching c from the next step; out: the one reaching c_prev), the gradient of the four
/// pre-activations into `dz` [.][4 hidden].
__attribute__((target_clones("arch=x86-64-v3", "default"))) void cellBackward(
    const float* gates, const float* c, const float* cPrev, const float* dh, float* dc, float* dz,
    int64_t rows, int64_t stride, int64_t hidden) {
  const Floats8 one = broadcast8(1.0f);
  for (int64_t r = 0; r < rows; ++r) {
    const float* g = gates + r * stride * 4 * hidden;
    float* d = dz + r * stride * 4 * hidden;
    const int64_t at = r * stride * hidden;
    for (int64_t j = 0; j < hidden; j += kLanes) {
      const Floats8 i = load8(g + j), f = load8(g + hidden + j), u = load8(g + 2 * hidden + j),
                    o = load8(g + 3 * hidden + j);
      const Floats8 tanhC = tanh8(load8(c + at + j));
      const Floats8 dH = load8(dh + r * hidden + j);
      const Floats8 dC = load8(dc + r * hidden + j) + dH * o * (one - tanhC * tanhC);
      const Floats8 previous = cPrev != nullptr ? load8(cPrev + at + j) : Floats8{};
      store8(d + j, dC * u * i * (one - i));
      store8(d + hidden + j, dC * previous * f * (one - f));
      store8(d + 2 * hidden + j, dC * i * (one - u * u));
      store8(d + 3 * hidden + j, dH * tanhC * o * (one - o));
      store8(dc + r * hidden + j, dC * f);
    }
  }
}

/// Steps whose input projections are written at once, just before the loop reaches them, so
/// that they are still in the cache when their step runs (about 16 x 30 rows of 1 KiB).
constexpr int64_t kStepsPerInputChunk = 16;

/// A layer's forward loop over `share`'s sequences: `fillInputs(from, to, share)` writes the
/// input projections (biases included) of steps [from, to) into the share's rows of `gates`
/// [rows][4 hidden], which then become the gate values; c and h [rows][hidden]. `recurrentT`
/// [hidden][4 hidden].
template <typename FillInputs>
void layerForward(const StepLayout& layout, const float* recurrentT, const FillInputs& fillInputs,
                  float* gates, float* c, float* h, int64_t hidden, RankShare share) {
  const int64_t width = 4 * hidden;
  for (int64_t t = 0; t < layout.steps(); ++t) {
    if (t % kStepsPerInputChunk == 0) {
      fillInputs(t, std::min(t + kStepsPerInputChunk, layout.steps()), share);
    }
    const int64_t rows = share.count(layout.active[static_cast<size_t>(t)]);
    if (rows == 0) break;  // the share's sequences have all ended
    const int64_t first = layout.offset[static_cast<size_t>(t)] + share.part;
    const float* cPrev = nullptr;
    if (t > 0) {
      const int64_t previous = layout.offset[static_cast<size_t>(t - 1)] + share.part;
      addStridedRowProducts(gates + first * width, share.parts * width, h + previous * hidden,
                            share.parts * hidden, recurrentT, rows, hidden, width);
      cPrev = c + previous * hidden;
    }
    cellForward(gates + first * width, cPrev, c + first * hidden, h + first * hidden, rows,
                share.parts, hidden);
  }
}

/// A layer's backward loop over `share`'s sequences, last step first: the gradient of every
/// pre-activation into `dz` [rows][4 hidden]. What reaches h from outside: `atEnd`
/// [ranks][hidden] at each sequence's last step, and/or `atEvery` [rows][hidden] at every step
/// (either may be null).
void layerBackward(const StepLayout& layout, const float* recurrent, const float* gates,
                   const float* c, const float* atEnd, const float* atEvery, float* dz,
                   int64_t hidden, RankShare share) {
  const int64_t width = 4 * hidden;
  const size_t mine = static_cast<size_t>(share.count(static_cast<int64_t>(layout.order.size())));
  // dh and dc of the share's sequences, the share's i-th sequence (rank part + i parts) in row i.
  std::vector<float> dh(mine * static_cast<size_t>(hidden), 0.0f);
  std::vector<float> dc(mine * static_cast<size_t>(hidden), 0.0f);
  for (int64_t t = layout.steps() - 1; t >= 0; --t) {
    const int64_t rows = share.count(layout.active[static_cast<size_t>(t)]);
    if (rows == 0) continue;  // the share's sequences end before this step
    const int64_t continuing = share.count(layout.active[static_cast<size_t>(t + 1)]);
    const int64_t first = layout.offset[static_cast<size_t>(t)] + share.part;
    // Sequences whose last step this is: nothing comes from a next step.
    for (int64_t i = continuing; i < rows; ++i) {
      float* dhRow = dh.data() + i * hidden;
      if (atEnd != nullptr) {
        const int64_t rank = share.part + i * share.parts;
        std::memcpy(dhRow, atEnd + rank * hidden, sizeof(float) * static_cast<size_t>(hidden));
      } else {
        std::fill(dhRow, dhRow + hidden, 0.0f);
      }
      std::fill(dc.data() + i * hidden, dc.data() + (i + 1) * hidden, 0.0f);
    }
    if (atEvery != nullptr) {
      for (int64_t i = 0; i < rows; ++i) {
        const float* add = atEvery + (first + i * share.parts) * hidden;
        float* dhRow = dh.data() + i * hidden;
        for (int64_t k = 0; k < hidden; ++k) dhRow[k] += add[k];
      }
    }
    const float* cPrev =
        t > 0 ? c + (layout.offset[static_cast<size_t>(t - 1)] + share.part) * hidden : nullptr;
    cellBackward(gates + first * width, c + first * hidden, cPrev, dh.data(), dc.data(),
                 dz + first * width, rows, share.parts, hidden);
    if (t > 0) {  // dh for step t - 1: dz W_hh
      std::fill(dh.begin(), dh.begin() + rows * hidden, 0.0f);
      addStridedRowProducts(dh.data(), hidden, dz + first * width, share.parts * width, recurrent,
                            rows, width, hidden);
    }
  }
}

/// Rows of the step before each row from step 1 on: the h each recurrent product read.
Tensor previousRows(const StepLayout& layout) {
  std::vector<int64_t> rows;
  rows.reserve(static_cast<size_t>(layout.rows()));
  for (int64_t t = 1; t < layout.steps(); ++t) {
    for (int64_t r = 0; r < layout.active[static_cast<size_t>(t)]; ++r) {
      rows.push_back(layout.offset[static_cast<size_t>(t - 1)] + r);
    }
  }
  return indexTensor(rows);
}

/// The rank each row of the layout belongs to.
Tensor rankOfRows(const StepLayout& layout) {
  std::vector<int64_t> ranks;
  ranks.reserve(static_cast<size_t>(layout.rows()));
  for (int64_t t = 0; t < layout.steps(); ++t) {
    for (int64_t r = 0; r < layout.active[static_cast<size_t>(t)]; ++r) ranks.push_back(r);
  }
  return indexTensor(ranks);
}

/// Each row's place in a [sequences * width] flattening of (sequence, step).
Tensor sequenceStepOfRows(const StepLayout& layout, int64_t width) {
  std::vector<int64_t> places;
  places.reserve(static_cast<size_t>(layout.rows()));
  for (int64_t t = 0; t < layout.steps(); ++t) {
    for (int64_t r = 0; r < layout.active[static_cast<size_t>(t)]; ++r) {
      places.push_back(layout.order[static_cast<size_t>(r)] * width + t);
    }
  }
  return indexTensor(places);
}

/// Each rank's length as floats, [ranks].
Tensor rankLengths(const StepLayout& layout) {
  return indexTensor(layout.length).to(torch::kFloat32);
}

/// The token of every row of the layout; each must index one of `tableRows` table rows.
Tensor rowTokens(const StepLayout& layout, const Tensor& tokens, int64_t tableRows) {
  const Tensor flat = tokens.to(torch::kInt64).contiguous();
  const int64_t width = flat.size(1);
  const int64_t* raw = flat.data_ptr<int64_t>();
  std::vector<int64_t> ids;
  ids.reserve(static_cast<size_t>(layout.rows()));
  for (int64_t t = 0; t < layout.steps(); ++t) {
    for (int64_t r = 0; r < layout.active[static_cast<size_t>(t)]; ++r) {
      const int64_t id = raw[layout.order[static_cast<size_t>(r)] * width + t];
      if (id < 0 || id >= tableRows) {
        throw ModelError("fastLstmEncode: token " + std::to_string(id) +
                         " outside the embedding's " + std::to_string(tableRows) + " rows");
      }
      ids.push_back(id);
    }
  }
  return indexTensor(ids);
}

/// A [rows, cols] float buffer from this thread's pool: the big per-batch buffers are reused
/// from batch to batch instead of being mapped (and zeroed by the kernel) afresh each time. A
/// pooled buffer is free again once nothing but the pool holds its storage (the autograd graph
/// that saved it is gone). Contents are undefined.
Tensor workspace(int64_t rows, int64_t cols) {
  constexpr size_t kPoolSize = 16;
  thread_local std::vector<Tensor> pool;
  const int64_t wanted = rows * cols;
  Tensor* chosen = nullptr;
  for (Tensor& buffer : pool) {
    if (buffer.storage().use_count() == 1 && buffer.numel() >= wanted &&
        (chosen == nullptr || buffer.numel() < chosen->numel())) {
      chosen = &buffer;
    }
  }
  if (chosen == nullptr) {
    if (pool.size() >= kPoolSize) {  // forget a free one (the smallest), or give up pooling
      auto freeBuffer = std::find_if(pool.begin(), pool.end(), [](const Tensor& buffer) {
        return buffer.storage().use_count() == 1;
      });
      if (freeBuffer == pool.end()) return torch::empty({rows, cols});
      pool.erase(freeBuffer);
    }
    pool.push_back(torch::empty({wanted + wanted / 4}));
    chosen = &pool.back();
  }
  return chosen->narrow(0, 0, wanted).view({rows, cols});
}

float* floats(Tensor& tensor) { return tensor.data_ptr<float>(); }
const float* floats(const Tensor& tensor) { return tensor.data_ptr<float>(); }

/// Rows per BLAS call in product(): a function of the result's rows alone (at least 64, at most
/// 16 calls for a tall result), never of the thread count.
int64_t productBlockRows(int64_t rows) { return std::max<int64_t>(64, (rows / 16 + 63) / 64 * 64); }

/// a b (into `out` if given, else a new tensor), computed as one BLAS call per block of
/// productBlockRows() result rows, the blocks shared among `parts` threads when the BLAS takes
/// concurrent calls. The blocks are the same for any number of threads, so the result is too:
/// a BLAS may sum a row's products in another order when a call has more or fewer rows (OpenBLAS
/// 0.3.21 on an AVX2 "Zen" core does; on AVX-512 it does not), but not between equal calls.
Tensor product(const Tensor& a, const Tensor& b, int64_t parts, Tensor* out = nullptr) {
  static const bool concurrentBlas = loadedBlas().concurrentCallsSafe;
  Tensor result = out != nullptr ? *out : torch::empty({a.size(0), b.size(1)}, a.options());
  const int64_t rows = a.size(0);
  const int64_t block = productBlockRows(rows);
  const int64_t blocks = (rows + block - 1) / block;
  const auto multiply = [&](RankShare share) {
    torch::NoGradGuard noGrad;  // a new thread starts in grad mode: the backward runs without
    for (int64_t index = share.part; index < blocks; index += share.parts) {
      const int64_t first = index * block;
      Tensor slice = result.narrow(0, first, std::min(block, rows - first));
      torch::mm_out(slice, a.narrow(0, first, slice.size(0)), b);
    }
  };
  onThreads(concurrentBlas ? std::min(parts, blocks) : 1, multiply);
  return result;
}

/// Threads for the loops: as asked (at least 1), at most one per sequence.
int64_t threadsFor(const StepLayout& layout, int64_t asked) {
  return std::clamp<int64_t>(asked, 1,
                             std::max<int64_t>(1, static_cast<int64_t>(layout.order.size())));
}

/// What the encoder returns of the second layer's states `h2` (one row per step and sequence, in
/// `layout`'s order): every step's state, their mean per sequence, or the last step's.
Tensor outputOf(const StepLayout& layout, const Tensor& h2, int64_t width, int64_t output) {
  const int64_t hidden = h2.size(1);
  const Tensor order = indexTensor(layout.order);
  const int64_t count = static_cast<int64_t>(layout.order.size());
  Tensor result;
  if (output == static_cast<int64_t>(LstmOutput::kEveryStep)) {
    // Each row's state at its (sequence, step) place; zeros after each sequence's end.
    result = torch::zeros({count * width, hidden})
                 .index_copy_(0, sequenceStepOfRows(layout, width), h2)
                 .view({count, width, hidden});
  } else if (output == static_cast<int64_t>(LstmOutput::kMean)) {
    // Every step's state summed into its rank, then divided by the rank's length.
    const Tensor sums = torch::zeros({count, hidden}).index_add_(0, rankOfRows(layout), h2);
    result = torch::zeros({count, hidden})
                 .index_copy_(0, order, sums / rankLengths(layout).unsqueeze(1));
  } else {
    std::vector<int64_t> lastRows;
    for (size_t r = 0; r < layout.order.size(); ++r) {
      lastRows.push_back(layout.offset[static_cast<size_t>(layout.length[r] - 1)] +
                         static_cast<int64_t>(r));
    }
    result = torch::zeros({count, hidden})
                 .index_copy_(0, order, h2.index_select(0, indexTensor(lastRows)));
  }
  return result;
}

class FastLstmFunction : public torch::autograd::Function<FastLstmFunction> {
 public:
  static Tensor forward(torch::autograd::AutogradContext* context, Tensor embedding, Tensor input1,
                        Tensor recurrent1, Tensor inputBias1, Tensor recurrentBias1, Tensor input2,
                        Tensor recurrent2, Tensor inputBias2, Tensor recurrentBias2, Tensor tokens,
                        Tensor lengths, int64_t threads, int64_t output) {
    const int64_t hidden = recurrent1.size(1);
    const StepLayout layout = layoutOf(lengths, tokens.size(1));
    const int64_t parts = threadsFor(layout, threads);
    const Tensor ids = rowTokens(layout, tokens, embedding.size(0));
    // Layer 1: one table row per token (embedding x input weights + both biases), gathered a
    // chunk of steps at a time.
    const Tensor table =
        torch::addmm(inputBias1 + recurrentBias1, embedding, input1.t()).contiguous();
    const int64_t rows = layout.rows();
    const int64_t width = 4 * hidden;
    Tensor gates1 = workspace(rows, width);
    Tensor c1 = workspace(rows, hidden);
    Tensor h1 = workspace(rows, hidden);
    const int64_t* tokenOfRow = ids.data_ptr<int64_t>();
    const float* tableRows = floats(table);
    float* gates1Rows = floats(gates1);
    const auto gatherTable = [&](int64_t from, int64_t to, RankShare share) {
      for (int64_t t = from; t < to; ++t) {
        const int64_t first = layout.offset[static_cast<size_t>(t)] + share.part;
        const int64_t count = share.count(layout.active[static_cast<size_t>(t)]);
        for (int64_t i = 0; i < count; ++i) {
          const int64_t row = first + i * share.parts;
          std::memcpy(gates1Rows + row * width, tableRows + tokenOfRow[row] * width,
                      sizeof(float) * static_cast<size_t>(width));
        }
      }
    };
    const Tensor recurrent1T = recurrent1.t().contiguous();
    onThreads(parts, [&](RankShare share) {
      layerForward(layout, floats(recurrent1T), gatherTable, gates1Rows, floats(c1), floats(h1),
                   hidden, share);
    });
    // Layer 2: the input projection of a chunk of steps in one product (LibTorch's, on this
    // thread: with several threads, every chunk before the loops).
    Tensor gates2 = workspace(rows, width);
    const Tensor bias2 = inputBias2 + recurrentBias2;
    const Tensor input2T = input2.t();
    const auto project = [&](int64_t from, int64_t to) {
      const int64_t first = layout.offset[static_cast<size_t>(from)];
      const int64_t count = layout.offset[static_cast<size_t>(to)] - first;
      Tensor chunk = gates2.narrow(0, first, count);
      torch::addmm_out(chunk, bias2, h1.narrow(0, first, count), input2T);
    };
    if (parts > 1) {
      for (int64_t t = 0; t < layout.steps(); t += kStepsPerInputChunk) {
        project(t, std::min(t + kStepsPerInputChunk, layout.steps()));
      }
    }
    Tensor c2 = workspace(rows, hidden);
    Tensor h2 = workspace(rows, hidden);
    const Tensor recurrent2T = recurrent2.t().contiguous();
    const auto fill = [&](int64_t from, int64_t to, RankShare) {
      if (parts == 1) project(from, to);  // else done above
    };
    onThreads(parts, [&](RankShare share) {
      layerForward(layout, floats(recurrent2T), fill, floats(gates2), floats(c2), floats(h2),
                   hidden, share);
    });

    const Tensor result = outputOf(layout, h2, tokens.size(1), output);

    context->save_for_backward({embedding, input1, recurrent1, input2, recurrent2});
    context->saved_data["lengths"] = lengths;
    context->saved_data["width"] = tokens.size(1);
    context->saved_data["threads"] = threads;
    context->saved_data["output"] = output;
    context->saved_data["ids"] = ids;
    context->saved_data["gates1"] = gates1;
    context->saved_data["c1"] = c1;
    context->saved_data["h1"] = h1;
    context->saved_data["gates2"] = gates2;
    context->saved_data["c2"] = c2;
    context->saved_data["h2"] = h2;
    return result;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list gradients) {
    const auto saved = context->get_saved_variables();
    const Tensor &embedding = saved[0], &input1 = saved[1], &recurrent1 = saved[2],
                 &input2 = saved[3], &recurrent2 = saved[4];
    const int64_t hidden = recurrent1.size(1);
    const StepLayout layout =
        layoutOf(context->saved_data["lengths"].toTensor(), context->saved_data["width"].toInt());
    const int64_t parts = threadsFor(layout, context->saved_data["threads"].toInt());
    const auto tensor = [&](const char* name) { return context->saved_data[name].toTensor(); };
    const Tensor ids = tensor("ids"), h1 = tensor("h1"), h2 = tensor("h2");
    const Tensor previous = previousRows(layout);
    const int64_t firstStepRows = layout.active.empty() ? 0 : layout.active.front();
    const int64_t laterRows = layout.rows() - firstStepRows;

    // Layer 2. Last state: the gradient enters at each sequence's last step. Mean: at every
    // step, divided by the sequence's length. Every step: at every step, its own.
    const int64_t output = context->saved_data["output"].toInt();
    const int64_t count = static_cast<int64_t>(layout.order.size());
    const int64_t width = context->saved_data["width"].toInt();
    Tensor atEnd, atEvery;
    if (output == static_cast<int64_t>(LstmOutput::kEveryStep)) {
      atEvery = gradients[0].defined() ? gradients[0]
                                             .reshape({count * width, hidden})
                                             .index_select(0, sequenceStepOfRows(layout, width))
                                             .contiguous()
                                       : torch::zeros({layout.rows(), hidden});
    } else {
      const Tensor given =
          gradients[0].defined() ? gradients[0].contiguous() : torch::zeros({count, hidden});
      const Tensor ranked = given.index_select(0, indexTensor(layout.order));
      if (output == static_cast<int64_t>(LstmOutput::kMean)) {
        atEvery = (ranked / rankLengths(layout).unsqueeze(1))
                      .index_select(0, rankOfRows(layout))
                      .contiguous();
      } else {
        atEnd = ranked.contiguous();
      }
    }
    Tensor dz2 = workspace(layout.rows(), 4 * hidden);
    const Tensor recurrent2Rows = recurrent2.contiguous(), gates2 = tensor("gates2"),
                 c2 = tensor("c2");
    onThreads(parts, [&](RankShare share) {
      layerBackward(layout, floats(recurrent2Rows), floats(gates2), floats(c2),
                    atEnd.defined() ? floats(atEnd) : nullptr,
                    atEvery.defined() ? floats(atEvery) : nullptr, floats(dz2), hidden, share);
    });
    Tensor before2 = workspace(laterRows, hidden);  // the h each recurrent product read
    torch::index_select_out(before2, h2, 0, previous);
    const Tensor dRecurrent2 = product(dz2.narrow(0, firstStepRows, laterRows).t(), before2, parts);
    const Tensor dBias2 = dz2.sum(0);
    const Tensor dInput2 = product(dz2.t(), h1, parts);
    Tensor dH1 = workspace(layout.rows(), hidden);  // what reaches layer 1's h at every step
    product(dz2, input2, parts, &dH1);

    // Layer 1, and its input projection back through the token table.
    Tensor dz1 = workspace(layout.rows(), 4 * hidden);
    const Tensor recurrent1Rows = recurrent1.contiguous(), gates1 = tensor("gates1"),
                 c1 = tensor("c1");
    onThreads(parts, [&](RankShare share) {
      layerBackward(layout, floats(recurrent1Rows), floats(gates1), floats(c1), nullptr,
                    floats(dH1), floats(dz1), hidden, share);
    });
    Tensor before1 = workspace(laterRows, hidden);  // the h each recurrent product read
    torch::index_select_out(before1, h1, 0, previous);
    const Tensor dRecurrent1 = product(dz1.narrow(0, firstStepRows, laterRows).t(), before1, parts);
    const Tensor dBias1 = dz1.sum(0);
    const Tensor dTable = torch::zeros({embedding.size(0), 4 * hidden}).index_add_(0, ids, dz1);
    const Tensor dInput1 = dTable.t().mm(embedding);
    const Tensor dEmbedding = dTable.mm(input1);
    return {dEmbedding, dInput1, dRecurrent1, dBias1,   dBias1,   dInput2, dRecurrent2,
            dBias2,     dBias2,  Tensor(),    Tensor(), Tensor(), Tensor()};
  }
};

}  // namespace

bool fastLstmSupports(int64_t hidden) { return hidden > 0 && hidden % (4 * kLanes) == 0; }

Tensor fastLstmEncode(const Tensor& embedding, const LstmLayerWeights& layer1,
                      const LstmLayerWeights& layer2, const Tensor& tokens, const Tensor& lengths,
                      int threads, LstmOutput output) {
  const int64_t hidden = layer1.recurrent.size(1);
  if (!fastLstmSupports(hidden) || layer2.recurrent.size(1) != hidden ||
      layer2.input.size(1) != hidden || tokens.dim() != 2 || tokens.size(1) < 1 ||
      lengths.numel() != tokens.size(0)) {
    throw ModelError("fastLstmEncode: unsupported shapes (hidden " + std::to_string(hidden) + ")");
  }
  for (const Tensor& t :
       {embedding, layer1.input, layer1.recurrent, layer2.input, layer2.recurrent}) {
    if (t.scalar_type() != torch::kFloat32) {
      throw ModelError("fastLstmEncode: float32 weights only");
    }
  }
  return FastLstmFunction::apply(embedding, layer1.input, layer1.recurrent, layer1.inputBias,
                                 layer1.recurrentBias, layer2.input, layer2.recurrent,
                                 layer2.inputBias, layer2.recurrentBias, tokens, lengths,
                                 static_cast<int64_t>(threads), static_cast<int64_t>(output));
}

}  // namespace deeptune::model::internal
