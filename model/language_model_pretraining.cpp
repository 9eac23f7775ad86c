// Pretraining DeepTune's language model (embedding, LSTM) as a next-token predictor.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <random>

#include "model/deeptune_model.hpp"
#include "model/initialization_lock.hpp"
#include "model/internal/model_state.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {

std::vector<double> DeepTuneModel::pretrainLanguageModel(
    const std::vector<std::vector<int>>& sequences, const PretrainOptions& options) {
  impl_->dropSingleSequenceNet();
  const int64_t vocabulary = static_cast<int64_t>(impl_->info.vocabulary.size());
  std::vector<const std::vector<int>*> usable;
  for (const auto& sequence : sequences) {
    for (int token : sequence) {
      if (token < 0 || token >= vocabulary) {
        throw ModelError("pretraining: token id " + std::to_string(token) + " outside 0.." +
                         std::to_string(vocabulary - 1));
      }
    }
    if (sequence.size() >= 2) usable.push_back(&sequence);
  }
  if (usable.empty()) throw ModelError("pretraining needs a sequence of at least 2 tokens");
  if (options.epochs < 1 || options.batchSize < 1) {
    throw ModelError("pretraining: epochs and batch size must be positive");
  }
  auto& net = impl_->net;
  torch::nn::Linear nextToken{nullptr};
  {
    std::lock_guard<std::mutex> lock(torchInitializationMutex());
    torch::manual_seed(options.seed);
    nextToken = torch::nn::Linear(net->options().lstmSize, vocabulary);
  }
  std::vector<torch::Tensor> parameters = net->embedding->parameters();
  for (const auto& p : net->lstm->parameters()) parameters.push_back(p);
  for (const auto& p : nextToken->parameters()) parameters.push_back(p);
  torch::optim::Adam optimizer(parameters,
                               torch::optim::AdamOptions(options.learningRate).eps(1e-7));
  net->setFastLstmThreads(std::max(1, options.lstmThreads));
  net->train();
  std::mt19937_64 random(options.seed);
  std::vector<double> curve;
  const size_t batchSize = static_cast<size_t>(options.batchSize);
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    std::shuffle(usable.begin(), usable.end(), random);
    double lossSum = 0;
    int64_t predicted = 0;
    for (size_t first = 0; first < usable.size(); first += batchSize) {
      const size_t count = std::min(batchSize, usable.size() - first);
      int64_t width = 0;
      for (size_t i = 0; i < count; ++i) {
        width = std::max<int64_t>(width, static_cast<int64_t>(usable[first + i]->size()));
      }
      torch::Tensor tokens =
          torch::full({static_cast<int64_t>(count), width}, vocabulary, torch::kInt64);
      torch::Tensor lengths = torch::empty({static_cast<int64_t>(count)}, torch::kInt64);
      auto cells = tokens.accessor<int64_t, 2>();
      for (size_t i = 0; i < count; ++i) {
        const std::vector<int>& sequence = *usable[first + i];
        for (size_t t = 0; t < sequence.size(); ++t) cells[i][t] = sequence[t];
        lengths[static_cast<int64_t>(i)] = static_cast<int64_t>(sequence.size());
      }
      // The state after tokens 0..t predicts token t + 1, for every t before the last token.
      const torch::Tensor states = net->encodeSteps(tokens, lengths).narrow(1, 0, width - 1);
      const torch::Tensor targets = tokens.narrow(1, 1, width - 1);
      const torch::Tensor known = targets.lt(vocabulary).reshape({-1});
      const torch::Tensor logits = nextToken->forward(states).reshape({-1, vocabulary});
      const torch::Tensor loss = torch::nn::functional::cross_entropy(
          logits.index({known}), targets.reshape({-1}).index({known}));
      const double value = loss.item<double>();
      if (!std::isfinite(value)) {
        throw ModelError("pretraining diverged: loss is " + std::to_string(value) + " in epoch " +
                         std::to_string(epoch));
      }
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      const int64_t targetsInBatch = known.sum().item<int64_t>();
      lossSum += value * static_cast<double>(targetsInBatch);
      predicted += targetsInBatch;
    }
    curve.push_back(lossSum / static_cast<double>(predicted));
  }
  net->eval();
  return curve;
}

}  // namespace deeptune::model
