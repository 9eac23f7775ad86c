// Magni et al.'s thread-coarsening baseline: a cascade of "coarsen further?" binary decisions.
#include "training/magni_cascade.hpp"

#include <torch/torch.h>

#include <cmath>
#include <mutex>

#include "evaluation/protocol.hpp"
#include "model/initialization_lock.hpp"

namespace deeptune::training {
namespace {

constexpr int kEpochs = 300;
constexpr double kLearningRate = 0.01;

torch::Tensor featureRow(const std::array<double, 7>& pca) {
  torch::Tensor row = torch::empty({7});
  for (int i = 0; i < 7; ++i) row[i] = static_cast<float>(pca[static_cast<size_t>(i)]);
  return row;
}

}  // namespace

struct MagniCascade::Impl {
  mutable torch::nn::Sequential net{nullptr};  // forward() is not const in LibTorch
  torch::Tensor mean;
  torch::Tensor deviation;

  bool further(const std::array<double, 7>& pca) const {
    torch::NoGradGuard noGrad;
    const torch::Tensor x = ((featureRow(pca) - mean) / deviation).unsqueeze(0);
    return net->forward(x).item<float>() > 0.5f;
  }
};

MagniCascade::MagniCascade(const std::vector<data::CoarseningKernel>& training, int hiddenUnits,
                           uint64_t seed)
    : impl_(std::make_unique<Impl>()) {
  std::vector<torch::Tensor> rows;
  std::vector<float> labels;
  for (const data::CoarseningKernel& kernel : training) {
    for (const auto& [factor, pca] : kernel.pca) {
      if (factor > kernel.bestFactor) break;
      rows.push_back(featureRow(pca));
      labels.push_back(factor < kernel.bestFactor ? 1.0f : 0.0f);
    }
  }
  const torch::Tensor x = torch::stack(rows);
  const torch::Tensor y = torch::tensor(labels).unsqueeze(1);
  impl_->mean = x.mean(0);
  impl_->deviation = x.std(0).clamp_min(1e-6);
  const torch::Tensor standardized = (x - impl_->mean) / impl_->deviation;
  {
    std::lock_guard<std::mutex> lock(model::torchInitializationMutex());
    torch::manual_seed(seed);
    impl_->net = torch::nn::Sequential(torch::nn::Linear(7, hiddenUnits), torch::nn::Tanh(),
                                       torch::nn::Linear(hiddenUnits, 1), torch::nn::Sigmoid());
  }
  torch::optim::Adam optimizer(impl_->net->parameters(), torch::optim::AdamOptions(kLearningRate));
  for (int epoch = 0; epoch < kEpochs; ++epoch) {  // full batch: a few dozen rows
    optimizer.zero_grad();
    const torch::Tensor loss = torch::binary_cross_entropy(impl_->net->forward(standardized), y);
    loss.backward();
    optimizer.step();
  }
}

MagniCascade::~MagniCascade() = default;
MagniCascade::MagniCascade(MagniCascade&&) noexcept = default;
MagniCascade& MagniCascade::operator=(MagniCascade&&) noexcept = default;

int MagniCascade::predict(const data::CoarseningKernel& kernel) const {
  int factor = kernel.pca.empty() ? 1 : kernel.pca.begin()->first;
  for (const auto& [measured, pca] : kernel.pca) {
    factor = measured;
    if (!impl_->further(pca)) break;
  }
  return factor;
}

const std::vector<int>& magniHiddenSizes() {
  static const std::vector<int> sizes = {2, 4, 8, 16};
  return sizes;
}

int predictWithMagni(const std::vector<data::CoarseningKernel>& training,
                     const data::CoarseningKernel& heldOut, uint64_t seed) {
  const evaluation::Protocol innerFolds = evaluation::leaveOneKernelOut(training.size());
  int bestSize = magniHiddenSizes().front();
  double bestMean = -1;
  for (int size : magniHiddenSizes()) {
    double sum = 0;
    for (int inner = 0; inner < innerFolds.folds; ++inner) {
      const evaluation::FoldRows fold = innerFolds.rowsOf(inner);
      std::vector<data::CoarseningKernel> rest;
      for (size_t i : fold.train) rest.push_back(training[i]);
      const data::CoarseningKernel& heldIn = training[fold.test.front()];
      sum += heldIn.speedup(
          MagniCascade(rest, size, seed + static_cast<uint64_t>(inner)).predict(heldIn));
    }
    if (sum > bestMean) {
      bestMean = sum;
      bestSize = size;
    }
  }
  return MagniCascade(training, bestSize, seed).predict(heldOut);
}

}  // namespace deeptune::training
