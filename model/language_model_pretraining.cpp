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

namespace {

/// The sequences of `batch` as a padded [count, width] tensor (pad id = vocabulary) and lengths.
std::pair<torch::Tensor, torch::Tensor> paddedBatch(
    const std::vector<const std::vector<int>*>& batch, int64_t vocabulary) {
  int64_t width = 0;
  for (const auto* sequence : batch) width = std::max<int64_t>(width, sequence->size());
  const auto count = static_cast<int64_t>(batch.size());
  torch::Tensor tokens = torch::full({count, width}, vocabulary, torch::kInt64);
  torch::Tensor lengths = torch::empty({count}, torch::kInt64);
  auto cells = tokens.accessor<int64_t, 2>();
  for (int64_t i = 0; i < count; ++i) {
    const std::vector<int>& sequence = *batch[static_cast<size_t>(i)];
    for (size_t t = 0; t < sequence.size(); ++t) cells[i][static_cast<int64_t>(t)] = sequence[t];
    lengths[i] = static_cast<int64_t>(sequence.size());
  }
  return {tokens, lengths};
}

/// The sequences of at least 2 tokens (the others teach nothing); throws for an id outside the
/// vocabulary.
std::vector<const std::vector<int>*> usableSequences(const std::vector<std::vector<int>>& sequences,
                                                     int64_t vocabulary) {
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
  return usable;
}

}  // namespace

std::vector<double> DeepTuneModel::pretrainLanguageModel(
    const std::vector<std::vector<int>>& sequences, const PretrainOptions& options) {
  impl_->dropSingleSequenceNet();
  const int64_t vocabulary = static_cast<int64_t>(impl_->info.vocabulary.size());
  std::vector<const std::vector<int>*> usable = usableSequences(sequences, vocabulary);
  const std::vector<const std::vector<int>*> heldOut = usableSequences(options.heldOut, vocabulary);
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
  // The summed cross-entropy of a batch's next tokens and how many there are.
  const auto batchLoss = [&](const std::vector<const std::vector<int>*>& batch) {
    const auto [tokens, lengths] = paddedBatch(batch, vocabulary);
    const int64_t width = tokens.size(1);
    // The state after tokens 0..t predicts token t + 1, for every t before the last token.
    const torch::Tensor states = net->encodeSteps(tokens, lengths).narrow(1, 0, width - 1);
    const torch::Tensor targets = tokens.narrow(1, 1, width - 1);
    const torch::Tensor known = targets.lt(vocabulary).reshape({-1});
    const torch::Tensor logits = nextToken->forward(states).reshape({-1, vocabulary});
    const torch::Tensor loss = torch::nn::functional::cross_entropy(
        logits.index({known}), targets.reshape({-1}).index({known}));
    return std::make_pair(loss, known.sum().item<int64_t>());
  };
  const size_t batchSize = static_cast<size_t>(options.batchSize);
  // One pass over `sequences` in batches: the mean cross-entropy per predicted token; with
  // `learn`, an Adam step after every batch.
  const auto pass = [&](const std::vector<const std::vector<int>*>& sequences, bool learn,
                        int epoch) {
    double lossSum = 0;
    int64_t predicted = 0;
    for (size_t first = 0; first < sequences.size(); first += batchSize) {
      const auto begin = sequences.begin() + static_cast<std::ptrdiff_t>(first);
      const auto [loss, targets] = batchLoss(
          {begin,
           begin + static_cast<std::ptrdiff_t>(std::min(batchSize, sequences.size() - first))});
      const double value = loss.item<double>();
      if (!std::isfinite(value)) {
        throw ModelError("pretraining diverged: loss is " + std::to_string(value) + " in epoch " +
                         std::to_string(epoch));
      }
      if (learn) {
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
      }
      lossSum += value * static_cast<double>(targets);
      predicted += targets;
    }
    return lossSum / static_cast<double>(std::max<int64_t>(1, predicted));
  };
  std::mt19937_64 random(options.seed);
  std::vector<double> curve;
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    net->train();
    std::shuffle(usable.begin(), usable.end(), random);
    curve.push_back(pass(usable, true, epoch));
    net->eval();
    double heldOutLoss = std::nan("");
    if (!heldOut.empty()) {
      torch::NoGradGuard noGrad;
      heldOutLoss = pass(heldOut, false, epoch);
    }
    if (options.epochDone) options.epochDone(epoch, curve.back(), heldOutLoss);
  }
  net->eval();
  return curve;
}

}  // namespace deeptune::model
