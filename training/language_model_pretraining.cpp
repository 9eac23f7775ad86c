// Pretraining DeepTune's language model once on an unlabelled corpus, saved as a model file.
#include "training/language_model_pretraining.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>

#include "data/checksum.hpp"
#include "data/datasets.hpp"
#include "data/duration_text.hpp"
#include "data/file_io.hpp"
#include "evaluation/protocol.hpp"
#include "model/devmap_data.hpp"
#include "tokenizer/vocabulary.hpp"
#include "training/training_error.hpp"

namespace deeptune::training {

void readPretrainInputs(PretrainRequest& request, const std::vector<std::string>& folders,
                        const std::vector<std::string>& excludedCsvs,
                        const std::string& vocabularyPath) {
  for (const std::string& folder : folders) {
    for (std::string& source : data::readSourceFolder(folder, ".cl")) {
      request.sources.push_back(std::move(source));
    }
  }
  for (const std::string& csv : excludedCsvs) {
    for (const data::DevmapRow& row : data::readDevmapCsv(csv)) request.excluded.push_back(row.src);
  }
  if (!vocabularyPath.empty()) {
    request.vocabulary = tokenizer::Vocabulary::load(vocabularyPath).tokens();
    request.vocabularyName = vocabularyPath;
  }
  request.dataName =
      folders.empty() ? "" : folders.front() + (folders.size() > 1 ? " and more" : "");
}

std::string pretrainEpochLine(int epoch, int epochs, double trainLoss, double heldOutLoss,
                              double seconds) {
  char line[160];
  std::snprintf(line, sizeof line, "epoch %d/%d  loss %.4f  held-out %.4f  %.0fs  ETA %s", epoch,
                epochs, trainLoss, heldOutLoss, seconds,
                data::formatDuration(seconds * (epochs - epoch)).c_str());
  return line;
}

std::string pretrainSummaryLine(const PretrainResult& r, const std::string& output,
                                double seconds) {
  char line[200];  // numbers only: the output path is appended, whatever its length
  std::snprintf(line, sizeof line,
                "%zu kernels (%zu tokens), %zu held out, %zu excluded; vocabulary %zu; held-out "
                "loss %.4f; ",
                r.trainingSources, r.trainingTokens, r.heldOutSources, r.excludedSources,
                r.vocabulary, r.heldOutLoss.empty() ? std::nan("") : r.heldOutLoss.back());
  return line + data::formatDuration(seconds) + "; wrote " + output;
}

void checkPretrainRequest(const PretrainRequest& r) {
  if (r.sources.empty()) throw TrainingError("pretrain: no source to learn from");
  if (!(r.heldOutShare >= 0 && r.heldOutShare <= 0.5)) {
    throw TrainingError("pretrain: --held-out is a share from 0 to 0.5");
  }
  if (r.maxLength < 2 || r.maxLength > 65536) {
    throw TrainingError("pretrain: --max-length is 2 to 65536");
  }
  if (r.lstmSize < 32 || r.lstmSize > 512 || r.lstmSize % 32 != 0) {
    throw TrainingError("pretrain: --lstm-size is a multiple of 32 from 32 to 512");
  }
  if (r.options.epochs < 1 || r.options.epochs > 1000 || r.options.batchSize < 1 ||
      r.options.batchSize > 4096 || !(r.options.learningRate > 0 && r.options.learningRate < 1)) {
    throw TrainingError(
        "pretrain: --epochs is 1 to 1000, --batch-size 1 to 4096, --learning-rate in (0, 1)");
  }
}

PretrainResult pretrainLanguageModel(const PretrainRequest& request,
                                     const PretrainEpochCallback& epochDone) {
  checkPretrainRequest(request);
  const auto started = std::chrono::steady_clock::now();
  PretrainResult result;
  // Distinct sources (without layout) outside the excluded ones, split by a hash of the text.
  const std::vector<std::string> kept =
      evaluation::pretrainingSources(request.sources, request.excluded, result.excludedSources);
  std::set<std::string> seen;
  std::vector<std::string_view> train, heldOut;
  const auto cut = static_cast<uint64_t>(std::llround(request.heldOutShare * 1000.0));
  for (const std::string& source : kept) {
    if (!seen.insert(source).second) continue;
    (data::fnv1a64(source) % 1000 < cut ? heldOut : train).push_back(source);
  }
  if (train.empty()) throw TrainingError("pretrain: every source is held out or excluded");
  const tokenizer::Vocabulary vocabulary =
      request.vocabulary.empty()
          ? tokenizer::Vocabulary::deriveFromTexts(train, request.vocabularyName)
          : tokenizer::Vocabulary(request.vocabulary, request.vocabularyName);
  const auto encode = [&](const std::vector<std::string_view>& sources) {
    std::vector<std::vector<int>> sequences;
    for (std::string_view source : sources) {
      sequences.push_back(model::modelTokens(vocabulary, std::string(source), request.maxLength));
    }
    return sequences;
  };
  const std::vector<std::vector<int>> trainSequences = encode(train);
  model::PretrainOptions options = request.options;
  options.heldOut = encode(heldOut);
  for (const auto& sequence : trainSequences) result.trainingTokens += sequence.size();
  result.trainingSources = train.size();
  result.heldOutSources = heldOut.size();
  result.vocabulary = vocabulary.size();

  model::ModelInfo info = model::devmapModelInfo(vocabulary, request.maxLength, false);
  info.method = "language-model";
  info.lstmSize = request.lstmSize;
  info.trainingRows = static_cast<int>(train.size());
  info.trainingCommand = request.command;
  uint64_t fingerprint = data::kFnv1a64Basis;
  for (std::string_view source : train) fingerprint = data::fnv1a64(source, fingerprint);
  info.dataFingerprint = "fnv1a64=" + data::hex64(fingerprint) + " over " +
                         std::to_string(train.size()) + " sources of " + request.dataName;
  model::DeepTuneModel network(info, options.seed);
  auto epochStart = std::chrono::steady_clock::now();
  options.epochDone = [&](int epoch, double trainLoss, double heldOutLoss) {
    const auto now = std::chrono::steady_clock::now();
    result.trainLoss.push_back(trainLoss);
    result.heldOutLoss.push_back(heldOutLoss);
    if (epochDone) {
      epochDone(epoch, trainLoss, heldOutLoss,
                std::chrono::duration<double>(now - epochStart).count());
    }
    epochStart = now;
  };
  network.pretrainLanguageModel(trainSequences, options);
  network.save(request.outputPath);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

std::string pretrainCurveCsv(const PretrainResult& result) {
  std::string csv = "epoch,train_loss,held_out_loss\n";
  for (size_t i = 0; i < result.trainLoss.size(); ++i) {
    char line[96];
    std::snprintf(line, sizeof line, "%zu,%.6f,", i + 1, result.trainLoss[i]);
    csv += line;
    if (!std::isnan(result.heldOutLoss[i])) {
      std::snprintf(line, sizeof line, "%.6f", result.heldOutLoss[i]);
      csv += line;
    }
    csv += "\n";
  }
  return csv;
}

}  // namespace deeptune::training
