// The hand-written LSTM against LibTorch's nn::LSTM: outputs and every gradient, several lengths.
#include <torch/torch.h>
// LibTorch's logging brings glog's CHECK; the tests mean Catch's.
#undef CHECK
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "model/internal/deeptune_net.hpp"

namespace {

using deeptune::model::internal::DeepTuneNet;
using deeptune::model::internal::DeepTuneNetOptions;

/// The encoding and the gradients of a random linear function of it, by name.
std::map<std::string, torch::Tensor> encodeAndDifferentiate(DeepTuneNet& net, bool fast,
                                                            const torch::Tensor& tokens,
                                                            const torch::Tensor& lengths,
                                                            const torch::Tensor& lossWeights,
                                                            bool everyStep = false) {
  net->useFastLstm(fast);
  net->zero_grad();
  const torch::Tensor encoded =
      everyStep ? net->encodeSteps(tokens, lengths) : net->encode(tokens, lengths);
  (encoded * lossWeights).sum().backward();
  std::map<std::string, torch::Tensor> result{{"output", encoded.detach().clone()}};
  for (const auto& p : net->named_parameters()) {
    if (p.value().grad().defined()) result[p.key()] = p.value().grad().clone();
  }
  return result;
}

/// max |a - b| / max |b|.
double relativeError(const torch::Tensor& a, const torch::Tensor& b) {
  const double scale = b.abs().max().item<double>();
  return (a - b).abs().max().item<double>() / (scale > 0 ? scale : 1.0);
}

}  // namespace

TEST_CASE("the hand-written LSTM computes LibTorch's outputs and gradients", "[model][lstm]") {
  torch::manual_seed(11);
  DeepTuneNetOptions options;  // the paper's sizes: 128 tokens, 64-wide embedding and layers
  // The last state, the mean over the steps, or every step's state (a language model's input).
  const int output = GENERATE(0, 1, 2);
  options.meanPooling = output == 1;
  const bool everyStep = output == 2;
  INFO("output " << output);
  DeepTuneNet net(options);
  {
    torch::NoGradGuard noGrad;  // weights wider than Keras' start, so no gate sits still
    for (auto& parameter : net->parameters()) parameter.uniform_(-0.4, 0.4);
  }
  REQUIRE(net->usesFastLstm());
  const std::vector<std::vector<int64_t>> batches = {
      {1}, {7, 3, 1, 7}, {40, 17, 40, 2, 33}, {300, 120, 1, 64, 299, 5}, {50, 50, 50}};
  for (const auto& lengthList : batches) {
    const int64_t width = *std::max_element(lengthList.begin(), lengthList.end());
    const int64_t count = static_cast<int64_t>(lengthList.size());
    const torch::Tensor tokens =
        torch::randint(0, options.vocabularySize + 1, {count, width}, torch::kInt64);
    const torch::Tensor lengths = torch::tensor(lengthList, torch::kInt64);
    const torch::Tensor lossWeights = everyStep ? torch::randn({count, width, options.lstmSize})
                                                : torch::randn({count, options.lstmSize});
    const auto stock = encodeAndDifferentiate(net, false, tokens, lengths, lossWeights, everyStep);
    const auto fast = encodeAndDifferentiate(net, true, tokens, lengths, lossWeights, everyStep);
    INFO("longest sequence " << width << ", " << count << " sequences");
    // Every embedding and LSTM parameter has a gradient on both paths, and the heads none.
    REQUIRE(stock.size() == 1 + 1 + 8);
    REQUIRE(fast.size() == stock.size());
    for (const auto& [name, expected] : stock) {
      INFO(name);
      REQUIRE(fast.count(name) == 1);
      REQUIRE(fast.at(name).sizes() == expected.sizes());
      // (A batch of one step has no recurrent product: those gradients are 0 on both paths.)
      if (width > 1 || name.find("weight_hh") == std::string::npos) {
        CHECK(expected.abs().max().item<double>() > 0);
      }
      CHECK(relativeError(fast.at(name), expected) < 1e-4);
    }
  }
}

TEST_CASE("the hand-written LSTM gives the same bits on any number of threads", "[model][lstm]") {
  // Each thread takes every n-th sequence and each row's arithmetic is unchanged, so outputs and
  // gradients are equal, not merely close; more threads than sequences are capped.
  torch::manual_seed(12);
  DeepTuneNetOptions options;
  DeepTuneNet net(options);
  {
    torch::NoGradGuard noGrad;
    for (auto& parameter : net->parameters()) parameter.uniform_(-0.4, 0.4);
  }
  const std::vector<int64_t> lengthList = {300, 1, 120, 64, 299, 5, 37, 300, 2};
  const int64_t width = 300, count = static_cast<int64_t>(lengthList.size());
  const torch::Tensor tokens =
      torch::randint(0, options.vocabularySize + 1, {count, width}, torch::kInt64);
  const torch::Tensor lengths = torch::tensor(lengthList, torch::kInt64);
  const torch::Tensor lossWeights = torch::randn({count, options.lstmSize});
  net->setFastLstmThreads(1);
  const auto one = encodeAndDifferentiate(net, true, tokens, lengths, lossWeights);
  for (int threads : {2, 3, 16}) {
    net->setFastLstmThreads(threads);
    const auto many = encodeAndDifferentiate(net, true, tokens, lengths, lossWeights);
    INFO(threads << " threads");
    REQUIRE(many.size() == one.size());
    for (const auto& [name, expected] : one) {
      INFO(name);
      CHECK(torch::equal(many.at(name), expected));
    }
  }
}

TEST_CASE("the hand-written LSTM refuses sizes it does not handle", "[model][lstm]") {
  DeepTuneNetOptions options;
  options.lstmSize = 20;  // not a multiple of 32: LibTorch's LSTM is used instead
  DeepTuneNet net(options);
  CHECK_FALSE(net->usesFastLstm());
  const torch::Tensor tokens = torch::randint(0, 129, {2, 5}, torch::kInt64);
  CHECK(net->encode(tokens, torch::tensor({5, 3}, torch::kInt64)).sizes() ==
        torch::IntArrayRef({2, 20}));
}
