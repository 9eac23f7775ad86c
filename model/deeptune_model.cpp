// DeepTuneModel: construction, training (rows of a source share an LSTM pass) and prediction.
#include "model/deeptune_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "model/initialization_lock.hpp"
#include "model/internal/example_checks.hpp"
#include "model/internal/model_state.hpp"
#include "model/internal/network_tensors.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {
namespace internal {

DeepTuneNetOptions networkOptions(const ModelInfo& info) {
  const NetworkSizes sizes = networkSizesOf(info);
  DeepTuneNetOptions options;
  options.vocabularySize = sizes.vocabulary;
  options.embeddingSize = sizes.embedding;
  options.lstmSize = sizes.lstm;
  options.auxInputs = sizes.auxInputs;
  options.denseSize = sizes.dense;
  options.outputs = sizes.outputs;
  options.meanPooling = info.pooling == "mean";
  return options;
}

}  // namespace internal

std::mutex& torchInitializationMutex() {
  static std::mutex mutex;
  return mutex;
}

namespace {

using internal::checkExamples;

/// Examples regrouped by distinct token sequence: rows that share a source share one LSTM pass
/// (the sequence is the same for every data size of a kernel).
struct GroupedExamples {
  std::vector<const std::vector<int>*> sources;
  std::vector<std::vector<size_t>> rowsOfSource;  ///< example indices per source
};

GroupedExamples groupBySource(const std::vector<Example>& examples) {
  GroupedExamples grouped;
  std::map<const std::vector<int>*, size_t,
           bool (*)(const std::vector<int>*, const std::vector<int>*)>
      index([](const std::vector<int>* a, const std::vector<int>* b) { return *a < *b; });
  for (size_t row = 0; row < examples.size(); ++row) {
    auto [found, inserted] = index.emplace(&examples[row].tokens, grouped.sources.size());
    if (inserted) {
      grouped.sources.push_back(&examples[row].tokens);
      grouped.rowsOfSource.emplace_back();
    }
    grouped.rowsOfSource[found->second].push_back(row);
  }
  return grouped;
}

/// One batch as tensors: padded sequences, their lengths, and the rows using them.
struct Batch {
  torch::Tensor tokens, lengths, rowSource, aux, labels;
  torch::Tensor regrets;  ///< rows x labels: best gain - each label's gain (when gains are given)
};

/// A batch: each entry is a source and the rows of it the batch trains on.
using BatchPlan = std::vector<std::pair<size_t, std::vector<size_t>>>;

Batch makeBatch(const std::vector<Example>& examples, const GroupedExamples& grouped,
                const BatchPlan& plan, const ModelInfo& info) {
  const int64_t pad = static_cast<int64_t>(info.vocabulary.size());
  int64_t width = 1;
  for (const auto& entry : plan) {
    width = std::max<int64_t>(width, static_cast<int64_t>(grouped.sources[entry.first]->size()));
  }
  if (info.paperPadding) width = info.maxLength;
  const int64_t count = static_cast<int64_t>(plan.size());
  Batch batch;
  batch.tokens = torch::full({count, width}, pad, torch::kInt64);
  batch.lengths = torch::empty({count}, torch::kInt64);
  auto tokens = batch.tokens.accessor<int64_t, 2>();
  std::vector<int64_t> rowSource;
  std::vector<float> aux;
  std::vector<int64_t> labels;
  std::vector<float> regrets;
  for (int64_t s = 0; s < count; ++s) {
    const std::vector<int>& sequence = *grouped.sources[plan[s].first];
    // Pre-padding (the paper's) right-aligns the sequence; otherwise it is left-aligned with
    // padding after it, which the network never reads (DeepTuneNetImpl::encode).
    const int64_t offset = info.paperPadding ? width - static_cast<int64_t>(sequence.size()) : 0;
    for (size_t t = 0; t < sequence.size(); ++t) tokens[s][offset + t] = sequence[t];
    batch.lengths[s] = info.paperPadding ? width : std::max<int64_t>(1, sequence.size());
    for (size_t row : plan[s].second) {
      rowSource.push_back(s);
      for (float value : examples[row].aux) aux.push_back(scaledAuxInput(info, value));
      labels.push_back(examples[row].label);
      const std::vector<float>& gains = examples[row].gains;
      const float best = gains.empty() ? 0.0f : *std::max_element(gains.begin(), gains.end());
      for (float gain : gains) regrets.push_back(best - gain);
    }
  }
  const int64_t rows = static_cast<int64_t>(rowSource.size());
  batch.rowSource = torch::tensor(rowSource, torch::kInt64);
  batch.aux = torch::tensor(aux, torch::kFloat32)
                  .reshape({rows, static_cast<int64_t>(info.auxInputs.size())});
  batch.labels = torch::tensor(labels, torch::kInt64);
  if (regrets.size() == static_cast<size_t>(rows) * info.labels.size()) {
    batch.regrets = torch::tensor(regrets, torch::kFloat32)
                        .reshape({rows, static_cast<int64_t>(info.labels.size())});
  }
  return batch;
}

/// Whole sources: every row of each.
BatchPlan wholeSources(const GroupedExamples& grouped, const std::vector<size_t>& sourceIds) {
  BatchPlan plan;
  for (size_t id : sourceIds) plan.emplace_back(id, grouped.rowsOfSource[id]);
  return plan;
}

/// Shuffled rows cut into batches of `batchSize`; within a batch, rows of one source are
/// gathered under one entry (one LSTM pass).
std::vector<BatchPlan> planRowBatches(const GroupedExamples& grouped, size_t batchSize,
                                      std::mt19937_64& random) {
  std::vector<std::pair<size_t, size_t>> rows;  // (source, row)
  for (size_t id = 0; id < grouped.sources.size(); ++id) {
    for (size_t row : grouped.rowsOfSource[id]) rows.emplace_back(id, row);
  }
  std::shuffle(rows.begin(), rows.end(), random);
  std::vector<BatchPlan> batches;
  for (size_t first = 0; first < rows.size(); first += batchSize) {
    BatchPlan plan;
    std::map<size_t, size_t> entryOfSource;
    for (size_t i = first; i < std::min(first + batchSize, rows.size()); ++i) {
      auto [found, inserted] = entryOfSource.emplace(rows[i].first, plan.size());
      if (inserted) plan.emplace_back(rows[i].first, std::vector<size_t>());
      plan[found->second].second.push_back(rows[i].second);
    }
    batches.push_back(std::move(plan));
  }
  return batches;
}

size_t rowsOf(const BatchPlan& plan) {
  size_t rows = 0;
  for (const auto& entry : plan) rows += entry.second.size();
  return rows;
}

/// Training-mode BatchNorm needs two rows per batch: a batch of one row joins the batch before it
/// (or after it, when it is the first), its rows under their source's entry.
void mergeSingleRowBatches(std::vector<BatchPlan>& batches) {
  for (size_t b = 0; b < batches.size() && batches.size() > 1;) {
    if (rowsOf(batches[b]) >= 2) {
      ++b;
      continue;
    }
    BatchPlan& into = batches[b == 0 ? 1 : b - 1];
    for (auto& [source, rows] : batches[b]) {
      auto found = std::find_if(into.begin(), into.end(),
                                [&](const auto& entry) { return entry.first == source; });
      if (found == into.end()) {
        into.emplace_back(source, rows);
      } else {
        found->second.insert(found->second.end(), rows.begin(), rows.end());
      }
    }
    batches.erase(batches.begin() + static_cast<std::ptrdiff_t>(b));
  }
}

/// One epoch's batches (none of one row, see mergeSingleRowBatches). kRows: planRowBatches.
/// Otherwise whole sources, in random order or of similar length (sorted by length plus a random
/// jitter, so batches differ between epochs), until a batch holds `batchSize` rows; batches in
/// random order.
std::vector<BatchPlan> planBatches(const GroupedExamples& grouped, size_t batchSize,
                                   TrainOptions::Batching batching, std::mt19937_64& random) {
  if (batching == TrainOptions::Batching::kRows) {
    std::vector<BatchPlan> batches = planRowBatches(grouped, batchSize, random);
    mergeSingleRowBatches(batches);
    return batches;
  }
  // Random batching: a jitter so large that the order is a random permutation.
  const double kJitter = batching == TrainOptions::Batching::kRandom ? 1e12 : 128.0;  // tokens
  std::uniform_real_distribution<double> jitter(0.0, kJitter);
  std::vector<std::pair<double, size_t>> keyed;
  for (size_t id = 0; id < grouped.sources.size(); ++id) {
    keyed.emplace_back(static_cast<double>(grouped.sources[id]->size()) + jitter(random), id);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::vector<size_t>> batches(1);
  size_t rows = 0;
  for (const auto& [key, id] : keyed) {
    if (rows >= batchSize) {
      batches.emplace_back();
      rows = 0;
    }
    batches.back().push_back(id);
    rows += grouped.rowsOfSource[id].size();
  }
  std::shuffle(batches.begin(), batches.end(), random);
  std::vector<BatchPlan> plans;
  for (const std::vector<size_t>& sourceIds : batches)
    plans.push_back(wholeSources(grouped, sourceIds));
  mergeSingleRowBatches(plans);
  return plans;
}

/// Keras' categorical cross-entropy on sigmoid outputs normalized to sum 1.
torch::Tensor categoricalCrossEntropy(const torch::Tensor& outputs, const torch::Tensor& labels) {
  const torch::Tensor normalized = outputs / outputs.sum(1, /*keepdim=*/true);
  const torch::Tensor clipped = normalized.clamp(1e-7, 1.0 - 1e-7);
  return -clipped.log().gather(1, labels.unsqueeze(1)).mean();
}

/// The expected regret of the outputs normalized to sum 1: mean over rows of sum p * regret.
torch::Tensor expectedRegret(const torch::Tensor& outputs, const torch::Tensor& regrets) {
  const torch::Tensor normalized = outputs / outputs.sum(1, /*keepdim=*/true);
  return (normalized * regrets).sum(1).mean();
}

}  // namespace

DeepTuneModel::DeepTuneModel(ModelInfo info, uint64_t seed) : impl_(std::make_unique<Impl>()) {
  if (info.vocabulary.empty() || info.labels.size() < 2) {
    throw ModelError("a model needs a vocabulary and at least two labels");
  }
  impl_->info = std::move(info);
  std::lock_guard<std::mutex> lock(torchInitializationMutex());
  torch::manual_seed(seed);
  impl_->net = internal::DeepTuneNet(internal::networkOptions(impl_->info));
}

DeepTuneModel::~DeepTuneModel() = default;
DeepTuneModel::DeepTuneModel(DeepTuneModel&&) noexcept = default;
DeepTuneModel& DeepTuneModel::operator=(DeepTuneModel&&) noexcept = default;

const ModelInfo& DeepTuneModel::info() const { return impl_->info; }
ModelInfo& DeepTuneModel::info() { return impl_->info; }

void DeepTuneModel::transferLanguageModel(const DeepTuneModel& source) {
  impl_->dropSingleSequenceNet();
  if (source.info().vocabulary != impl_->info.vocabulary) {
    throw ModelError("cannot transfer: the source model's vocabulary (" +
                     std::to_string(source.info().vocabulary.size()) +
                     " tokens) is not this model's (" +
                     std::to_string(impl_->info.vocabulary.size()) +
                     " tokens); train with the source model's vocabulary");
  }
  torch::NoGradGuard noGrad;
  const auto copyAll = [](const torch::nn::Module& from, torch::nn::Module& to) {
    const auto sourceParameters = from.named_parameters();
    for (auto& parameter : to.named_parameters()) {
      const torch::Tensor* value = sourceParameters.find(parameter.key());
      if (value == nullptr || !value->sizes().equals(parameter.value().sizes())) {
        throw ModelError("cannot transfer: the networks' sizes differ at " + parameter.key());
      }
      parameter.value().copy_(*value);
    }
  };
  copyAll(*source.impl_->net->embedding, *impl_->net->embedding);
  copyAll(*source.impl_->net->lstm, *impl_->net->lstm);
}

void DeepTuneModel::setLstm(TrainOptions::Lstm lstm) {
  impl_->net->useFastLstm(lstm == TrainOptions::Lstm::kFast);
}

int64_t DeepTuneModel::trainableParameters() const {
  int64_t count = 0;
  for (const auto& parameter : impl_->net->parameters()) count += parameter.numel();
  return count;
}

int64_t DeepTuneModel::bufferValues() const {
  int64_t count = 0;
  for (const auto& buffer : impl_->net->named_buffers()) {
    if (buffer.key().find("num_batches_tracked") == std::string::npos) {
      count += buffer.value().numel();
    }
  }
  return count;
}

TrainingSummary DeepTuneModel::train(const std::vector<Example>& examples,
                                     const TrainOptions& options,
                                     const ProgressCallback& progress) {
  impl_->dropSingleSequenceNet();
  if (examples.size() < 2) {
    throw ModelError("training needs at least 2 examples (BatchNorm), got " +
                     std::to_string(examples.size()));
  }
  checkExamples(examples, impl_->info, /*training=*/true);
  const bool regretLoss = options.loss == TrainOptions::Loss::kRegret;
  if (regretLoss) {
    for (size_t row = 0; row < examples.size(); ++row) {
      if (examples[row].gains.size() != impl_->info.labels.size()) {
        throw ModelError("the regret loss needs one gain per label; example " +
                         std::to_string(row + 1) + " has " +
                         std::to_string(examples[row].gains.size()));
      }
    }
  }
  const GroupedExamples grouped = groupBySource(examples);
  auto& net = impl_->net;
  setLstm(options.lstm);
  net->setFastLstmThreads(std::max(1, options.lstmThreads));
  net->train();
  torch::optim::Adam optimizer(
      net->parameters(),
      torch::optim::AdamOptions(options.learningRate).eps(1e-7));  // Keras' epsilon
  std::mt19937_64 random(options.seed);
  TrainingSummary summary;
  if (!options.validation.empty()) checkExamples(options.validation, impl_->info, true);
  std::vector<torch::Tensor> kept;  // the weights of the best validation epoch so far

  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    const auto started = std::chrono::steady_clock::now();
    double lossSum = 0;
    int64_t correct = 0;
    for (const BatchPlan& plan :
         planBatches(grouped, static_cast<size_t>(options.batchSize), options.batching, random)) {
      const size_t rows = rowsOf(plan);
      const Batch batch = makeBatch(examples, grouped, plan, impl_->info);
      optimizer.zero_grad();
      const auto outputs = net->forward(batch.tokens, batch.lengths, batch.rowSource, batch.aux);
      const torch::Tensor loss =
          regretLoss ? expectedRegret(outputs.main, batch.regrets) +
                           0.2 * expectedRegret(outputs.languageModel, batch.regrets)
                     : categoricalCrossEntropy(outputs.main, batch.labels) +
                           0.2 * categoricalCrossEntropy(outputs.languageModel, batch.labels);
      const double lossValue = loss.item<double>();
      if (!std::isfinite(lossValue)) {
        throw ModelError("training diverged: loss is " + std::to_string(lossValue) + " in epoch " +
                         std::to_string(epoch));
      }
      loss.backward();
      if (options.frozenEpochs < 0 || epoch <= options.frozenEpochs) {
        for (auto& parameter : net->embedding->parameters()) parameter.mutable_grad().reset();
        for (auto& parameter : net->lstm->parameters()) parameter.mutable_grad().reset();
      }
      optimizer.step();
      lossSum += lossValue * static_cast<double>(rows);
      correct += outputs.main.argmax(1).eq(batch.labels).sum().item<int64_t>();
    }
    EpochProgress report;
    report.epoch = epoch;
    report.epochs = options.epochs;
    report.loss = lossSum / static_cast<double>(examples.size());
    report.accuracy = static_cast<double>(correct) / static_cast<double>(examples.size());
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!options.validation.empty()) {
      const auto predicted = predict(options.validation);  // switches to eval mode
      net->train();
      size_t right = 0;
      for (size_t i = 0; i < predicted.size(); ++i) {
        right += (predicted[i][1] > predicted[i][0] ? 1 : 0) == options.validation[i].label;
      }
      report.validationAccuracy =
          static_cast<double>(right) / static_cast<double>(predicted.size());
      if (report.validationAccuracy > summary.keptValidationAccuracy) {
        summary.keptValidationAccuracy = report.validationAccuracy;
        summary.keptEpoch = epoch;
        torch::NoGradGuard noGrad;
        kept.clear();
        for (const auto& parameter : net->parameters()) kept.push_back(parameter.detach().clone());
        for (const auto& buffer : net->buffers()) kept.push_back(buffer.detach().clone());
      }
    }
    summary.add(report);
    if (progress) progress(report);
  }
  if (!kept.empty()) {
    torch::NoGradGuard noGrad;
    size_t next = 0;
    for (auto& parameter : net->parameters()) parameter.copy_(kept[next++]);
    for (auto& buffer : net->buffers()) buffer.copy_(kept[next++]);
  }
  net->eval();
  return summary;
}

std::vector<std::vector<float>> DeepTuneModel::languageModelStates(
    const std::vector<Example>& examples) const {
  checkExamples(examples, impl_->info, /*training=*/false);
  std::vector<std::vector<float>> states(examples.size());
  if (examples.empty()) return states;
  torch::NoGradGuard noGrad;
  impl_->net->eval();
  const GroupedExamples grouped = groupBySource(examples);
  std::vector<size_t> all(grouped.sources.size());
  for (size_t id = 0; id < all.size(); ++id) all[id] = id;
  const Batch batch = makeBatch(examples, grouped, wholeSources(grouped, all), impl_->info);
  const torch::Tensor encoded =
      impl_->net->encode(batch.tokens, batch.lengths).index_select(0, batch.rowSource);
  auto values = encoded.accessor<float, 2>();
  size_t r = 0;
  for (size_t id : all) {
    for (size_t row : grouped.rowsOfSource[id]) {
      states[row].assign(values[r].data(), values[r].data() + values.size(1));
      ++r;
    }
  }
  return states;
}

std::vector<float> DeepTuneModel::predictOne(const Example& example) const {
  checkExamples({example}, impl_->info, /*training=*/false);
  std::shared_ptr<const internal::SingleSequenceNet> single;
  {
    std::lock_guard<std::mutex> lock(impl_->singleMutex);
    if (!impl_->single) {
      impl_->single = std::make_shared<internal::SingleSequenceNet>(
          internal::networkTensors(*impl_->net, impl_->info), impl_->info);
    }
    single = impl_->single;
  }
  return single->predict(example.tokens, internal::scaledAuxInputs(impl_->info, example.aux));
}

std::vector<std::vector<float>> DeepTuneModel::predict(const std::vector<Example>& examples) const {
  checkExamples(examples, impl_->info, /*training=*/false);
  std::vector<std::vector<float>> probabilities(examples.size());
  if (examples.empty()) return probabilities;
  torch::NoGradGuard noGrad;
  auto& net = impl_->net;
  net->eval();
  const GroupedExamples grouped = groupBySource(examples);
  constexpr size_t kSourcesPerBatch = 64;
  for (size_t first = 0; first < grouped.sources.size(); first += kSourcesPerBatch) {
    std::vector<size_t> sourceIds;
    for (size_t id = first; id < std::min(first + kSourcesPerBatch, grouped.sources.size()); ++id) {
      sourceIds.push_back(id);
    }
    const Batch batch = makeBatch(examples, grouped, wholeSources(grouped, sourceIds), impl_->info);
    const auto outputs = net->forward(batch.tokens, batch.lengths, batch.rowSource, batch.aux);
    const torch::Tensor normalized = outputs.main / outputs.main.sum(1, true);
    auto values = normalized.accessor<float, 2>();
    size_t r = 0;
    for (size_t id : sourceIds) {
      for (size_t row : grouped.rowsOfSource[id]) {
        probabilities[row].assign(values[r].data(), values[r].data() + values.size(1));
        ++r;
      }
    }
  }
  return probabilities;
}

}  // namespace deeptune::model
