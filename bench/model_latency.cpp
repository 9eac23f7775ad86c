// Model-only prediction latency: the batch path (LibTorch's LSTM) against the single-sequence
// inference path, for one kernel of 100, 500 and 1024 tokens, in the same process.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_common.hpp"
#include "model/compute_environment.hpp"
#include "model/deeptune_model.hpp"
#include "model/inference_model.hpp"

namespace {

/// Median milliseconds of `runs` calls of `work`.
template <typename Work>
double medianMs(int runs, const Work& work) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto start = deeptune::bench::Clock::now();
    work();
    times.push_back(deeptune::bench::msSince(start));
  }
  return deeptune::bench::percentile(times, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]).rfind("-", 0) == 0) {
    std::fprintf(stderr,
                 "usage: bench_model_latency MODEL\n"
                 "  e.g. models/devmap-amd.model: one prediction for 100, 500 and 1024 tokens,\n"
                 "  LibTorch's batch path vs the single-sequence path, through DeepTuneModel and\n"
                 "  through InferenceModel (no LibTorch) (median of 21 runs).\n");
    return 2;
  }
  // One compute thread, as training's: on a pinned core, the BLAS's other threads spinning after
  // the batch path's products would take the core from the single-sequence path measured next.
  deeptune::model::setComputeThreads(1);
  deeptune::model::DeepTuneModel model = deeptune::model::DeepTuneModel::load(argv[1]);
  const auto inference = deeptune::model::InferenceModel::load(argv[1]);
  model.setLstm(deeptune::model::TrainOptions::Lstm::kStock);  // the baseline: LibTorch's LSTM
  const auto& info = model.info();
  std::mt19937 random(204);
  std::printf("%-8s %12s %12s %8s %12s %15s\n", "tokens", "batch ms", "single ms", "ratio",
              "max |diff|", "inference ms");
  for (int length : {100, 500, 1024}) {
    deeptune::model::Example example;
    for (int t = 0; t < std::min(length, info.maxLength); ++t) {
      example.tokens.push_back(static_cast<int>(random() % info.vocabulary.size()));
    }
    example.aux.assign(info.auxInputs.size(), 0.0f);
    if (example.aux.size() == 2) example.aux = {4194304.0f, 256.0f};
    const std::vector<float> batch = model.predict({example}).front();
    const std::vector<float> single = model.predictOne(example);
    float diff = 0;
    for (size_t i = 0; i < batch.size(); ++i) diff = std::max(diff, std::abs(batch[i] - single[i]));
    const double batchMs = medianMs(21, [&] { model.predict({example}); });
    const double singleMs = medianMs(21, [&] { model.predictOne(example); });
    const double inferenceMs = medianMs(21, [&] { inference.predict(example); });
    std::printf("%-8d %12.3f %12.3f %7.1fx %12.2g %15.3f\n", length, batchMs, singleMs,
                batchMs / singleMs, diff, inferenceMs);
  }
  return 0;
}
