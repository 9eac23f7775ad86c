// Predictor: kernel source + launch sizes -> device, joining rewriter, tokenizer and model.
#include "api/predictor.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <unordered_map>

#include "api/library_paths.hpp"
#include "data/checksum.hpp"
#include "model/inference_model.hpp"
#include "model/model_error.hpp"
#include "rewriter/normalizer.hpp"
#include "tokenizer/kernel_inputs.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::api {
namespace {

namespace fs = std::filesystem;

/// What the network reads for one kernel, cached per (source, kernel).
struct EncodedKernel {
  std::string kernel;
  uint64_t hash = 0;  ///< of the token sequence the network reads
  std::vector<int> tokens;
  std::vector<float> staticCounts;  ///< read by a source-boosted predictor
  size_t skipped = 0;
  double unknownShare = 0;      ///< skipped / the kernel's characters
  double nearestDistance = -1;  ///< to the model's nearest training program (-1: not kept)
  std::vector<std::string> undeclared;
};

/// The model at `path`, loaded after `normalizer` was told to get ready: its worker warms up on
/// another CPU while the model loads.
model::InferenceModel loadBesideRewriter(rewriter::Normalizer& normalizer,
                                         const std::string& path) {
  normalizer.prepare();
  return model::InferenceModel::load(path);
}

/// A model file with what it reads: the vocabulary, a normalizer and the encoded kernels.
struct LoadedModel {
  std::string modelPath;
  rewriter::Normalizer normalizer;
  model::InferenceModel network;
  tokenizer::Vocabulary vocabulary;
  std::unordered_map<size_t, EncodedKernel> cache;

  LoadedModel(const std::string& path, const std::string& task, const char* taskWords)
      : modelPath(path),
        network(loadBesideRewriter(normalizer, path)),
        vocabulary(network.info().vocabulary, path) {
    if (network.info().task != task) {
      throw model::ModelError(path + ": a '" + network.info().task + "' model, expected a " + task +
                              " (" + taskWords + ") model");
    }
  }

  /// Normalizes, extracts and encodes `kernel` once per source, file, kernel and options.
  const EncodedKernel& encode(const std::string& source, const std::string& fileName,
                              const std::string& kernel, const data::SourceOptions& options) {
    const size_t key = cacheKey(source, kernel, fileName, options);
    auto found = cache.find(key);
    if (found == cache.end()) {
      rewriter::KernelName chosen;
      rewriter::RewriteNotes notes;
      const std::string extract =
          normalizer.extractKernel(source, fileName, kernel, &chosen, options, &notes);
      found = cache.emplace(key, encodeText(extract, chosen.original, notes.undeclared, fileName))
                  .first;
    }
    return found->second;
  }

  /// Every kernel of the file, in source order, from one normalization of it; each is cached as
  /// encode() caches it under its name. Throws RewriteError for a file without a kernel.
  std::vector<const EncodedKernel*> encodeEach(const std::string& source,
                                               const std::string& fileName,
                                               const data::SourceOptions& options) {
    const size_t listKey = cacheKey(source, std::string(1, '\1'), fileName, options);
    auto listed = kernelLists.find(listKey);
    if (listed == kernelLists.end()) {
      rewriter::RewriteNotes notes;
      const std::vector<rewriter::ExtractedKernel> kernels =
          normalizer.extractEveryKernel(source, fileName, options, &notes);
      std::vector<size_t> keys;
      for (const rewriter::ExtractedKernel& kernel : kernels) {
        const size_t key = cacheKey(source, kernel.name.original, fileName, options);
        if (cache.count(key) == 0) {
          cache.emplace(key,
                        encodeText(kernel.text, kernel.name.original, notes.undeclared, fileName));
        }
        keys.push_back(key);
      }
      listed = kernelLists.emplace(listKey, std::move(keys)).first;
    }
    std::vector<const EncodedKernel*> result;
    for (size_t key : listed->second) result.push_back(&cache.at(key));
    return result;
  }

 private:
  /// Includes are relative to the file and the options change the text: all are part of the key.
  static size_t cacheKey(const std::string& source, const std::string& kernel,
                         const std::string& fileName, const data::SourceOptions& options) {
    return std::hash<std::string>{}(source + '\0' + kernel + '\0' + fileName + '\0' +
                                    options.buildFlags());
  }

  /// One extracted kernel as the network reads it.
  EncodedKernel encodeText(const std::string& extract, const std::string& kernel,
                           const std::vector<std::string>& undeclared,
                           const std::string& fileName) const {
    EncodedKernel encoded;
    encoded.undeclared = undeclared;
    tokenizer::KernelInputs inputs =
        tokenizer::kernelInputs(vocabulary, extract, static_cast<size_t>(network.info().maxLength),
                                fileName, network.readsStaticCounts());
    encoded.skipped = inputs.skipped;
    encoded.unknownShare =
        extract.empty() ? 0
                        : static_cast<double>(inputs.skipped) / static_cast<double>(extract.size());
    encoded.nearestDistance = network.nearestDistance(inputs.tokens);
    encoded.tokens = std::move(inputs.tokens);
    encoded.staticCounts = std::move(inputs.staticCounts);
    encoded.kernel = kernel;
    encoded.hash = data::fnv1a64({reinterpret_cast<const char*>(encoded.tokens.data()),
                                  encoded.tokens.size() * sizeof(int)});
    return encoded;
  }

  /// Per file (source, name, options): the cache keys of its kernels, in source order.
  std::unordered_map<size_t, std::vector<size_t>> kernelLists;
};

}  // namespace

struct Predictor::Impl : LoadedModel {
  explicit Impl(const std::string& path) : LoadedModel(path, "devmap", "device mapping") {}
};

struct CoarseningPredictor::Impl : LoadedModel {
  explicit Impl(const std::string& path) : LoadedModel(path, "coarsening", "thread coarsening") {}
};

Predictor::Predictor(const std::string& modelPath) : impl_(std::make_unique<Impl>(modelPath)) {}
Predictor::~Predictor() = default;
Predictor::Predictor(Predictor&&) noexcept = default;
Predictor& Predictor::operator=(Predictor&&) noexcept = default;

std::string Predictor::modelPath() const { return impl_->modelPath; }
int Predictor::networks() const { return impl_->network.info().networks; }
bool Predictor::boostedHeads() const { return impl_->network.info().boostedHeads; }
std::vector<std::string> Predictor::modelDevices() const {
  return impl_->network.info().deviceNames;
}

void checkLaunchSizes(double dsizeBytes, double wgsize) {
  char text[160];
  if (!(dsizeBytes >= 0 && dsizeBytes <= kMaxTransferBytes)) {  // false for NaN too
    std::snprintf(text, sizeof text, "data size %g bytes: expected a number from 0 to %g",
                  dsizeBytes, kMaxTransferBytes);
    throw model::ModelError(text);
  }
  if (!(wgsize >= 1 && wgsize <= kMaxWorkGroupSize && std::floor(wgsize) == wgsize)) {
    std::snprintf(text, sizeof text, "work-group size %g: expected a whole number from 1 to %.0f",
                  wgsize, kMaxWorkGroupSize);
    throw model::ModelError(text);
  }
}

namespace {

/// What the network reads of an encoded kernel (the launch sizes are the caller's).
model::Example exampleOf(const EncodedKernel& encoded) {
  model::Example example;
  example.tokens = encoded.tokens;
  example.staticCounts = encoded.staticCounts;
  return example;
}

/// The decision of `network` for `encoded` launched with these sizes.
Decision decide(const model::InferenceModel& network, const EncodedKernel& encoded,
                double dsizeBytes, double wgsize) {
  model::Example example = exampleOf(encoded);
  example.aux = {static_cast<float>(dsizeBytes), static_cast<float>(wgsize)};
  const std::vector<float> probabilities = network.predict(example);
  const model::ModelInfo& info = network.info();
  Decision decision;
  decision.kernel = encoded.kernel;
  decision.method = info.method;
  const bool gpu = probabilities[1] > probabilities[0];
  if (info.deviceNames.empty()) {
    decision.deviceType = info.labels[gpu ? 1 : 0];
  } else {
    decision.deviceType = info.deviceTypes[gpu ? 1 : 0];
    decision.modelDevice = info.deviceNames[gpu ? 1 : 0];
  }
  decision.probability = probabilities[gpu ? 1 : 0];
  decision.transferBytes = static_cast<uint64_t>(dsizeBytes);
  decision.wgsize = static_cast<size_t>(wgsize);
  decision.skippedCharacters = encoded.skipped;
  decision.unknownShare = encoded.unknownShare;
  decision.nearestDistance = encoded.nearestDistance;
  decision.undeclared = encoded.undeclared;
  decision.tokens = encoded.tokens.size();
  decision.normalizedHash = encoded.hash;
  return decision;
}

}  // namespace

Decision Predictor::predict(const std::string& source, const std::string& fileName,
                            const std::string& kernel, double dsizeBytes, double wgsize,
                            const data::SourceOptions& options) {
  checkLaunchSizes(dsizeBytes, wgsize);
  return decide(impl_->network, impl_->encode(source, fileName, kernel, options), dsizeBytes,
                wgsize);
}

std::vector<Decision> Predictor::predictEach(const std::string& source, const std::string& fileName,
                                             double dsizeBytes, double wgsize,
                                             const data::SourceOptions& options) {
  checkLaunchSizes(dsizeBytes, wgsize);
  std::vector<Decision> decisions;
  for (const EncodedKernel* encoded : impl_->encodeEach(source, fileName, options)) {
    decisions.push_back(decide(impl_->network, *encoded, dsizeBytes, wgsize));
  }
  return decisions;
}

uint64_t Predictor::normalizedHash(const std::string& source, const std::string& kernel,
                                   const std::string& buildOptions) {
  return impl_
      ->encode(source, "launch source", kernel, data::sourceOptionsFromBuildFlags(buildOptions))
      .hash;
}

Decision Predictor::predictDevice(const std::string& source, const std::string& kernel,
                                  uint64_t transferBytes, size_t wgsize,
                                  const std::string& buildOptions) {
  return predict(source, "launch source", kernel, static_cast<double>(transferBytes),
                 static_cast<double>(wgsize), data::sourceOptionsFromBuildFlags(buildOptions));
}

CoarseningPredictor::CoarseningPredictor(const std::string& modelPath)
    : impl_(std::make_unique<Impl>(modelPath)) {}
CoarseningPredictor::~CoarseningPredictor() = default;
CoarseningPredictor::CoarseningPredictor(CoarseningPredictor&&) noexcept = default;
CoarseningPredictor& CoarseningPredictor::operator=(CoarseningPredictor&&) noexcept = default;

const std::string& CoarseningPredictor::modelPath() const { return impl_->modelPath; }

namespace {

/// The coarsening factor `network` chooses for `encoded`.
FactorPrediction chooseFactor(const model::InferenceModel& network, const EncodedKernel& encoded) {
  const std::vector<float> probabilities = network.predict(exampleOf(encoded));
  const std::vector<std::string>& labels = network.info().labels;
  FactorPrediction prediction;
  prediction.kernel = encoded.kernel;
  prediction.method = network.info().method;
  size_t best = 0;
  for (size_t i = 0; i < labels.size() && i < probabilities.size(); ++i) {
    prediction.probabilities.emplace_back(std::stoi(labels[i]), probabilities[i]);
    if (probabilities[i] > probabilities[best]) best = i;
  }
  prediction.factor = prediction.probabilities.at(best).first;
  prediction.probability = prediction.probabilities.at(best).second;
  prediction.skippedCharacters = encoded.skipped;
  prediction.undeclared = encoded.undeclared;
  prediction.tokens = encoded.tokens.size();
  return prediction;
}

}  // namespace

FactorPrediction CoarseningPredictor::predict(const std::string& source,
                                              const std::string& fileName,
                                              const std::string& kernel,
                                              const data::SourceOptions& options) {
  return chooseFactor(impl_->network, impl_->encode(source, fileName, kernel, options));
}

std::vector<FactorPrediction> CoarseningPredictor::predictEach(const std::string& source,
                                                               const std::string& fileName,
                                                               const data::SourceOptions& options) {
  std::vector<FactorPrediction> predictions;
  for (const EncodedKernel* encoded : impl_->encodeEach(source, fileName, options)) {
    predictions.push_back(chooseFactor(impl_->network, *encoded));
  }
  return predictions;
}

namespace {

/// models/NAME found in $DEEPTUNE_MODELS or in share/deeptune/models beside this library.
std::string findModelFile(const std::string& name) {
  std::vector<fs::path> candidates;
  if (const char* dir = std::getenv("DEEPTUNE_MODELS")) candidates.push_back(fs::path(dir) / name);
  const fs::path bundled = bundledModelsDir();
  if (!bundled.empty()) candidates.push_back(bundled / name);
  std::error_code ec;
  for (const fs::path& candidate : candidates) {
    if (fs::is_regular_file(candidate, ec)) return fs::weakly_canonical(candidate, ec).string();
  }
  throw model::ModelError("no bundled model '" + name + "' (looked in $DEEPTUNE_MODELS and " +
                          (bundled.empty() ? std::string("nowhere else") : bundled.string()) +
                          "); give a model file instead");
}

std::string lowerCase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

/// `name` without its "-deeptune" suffix (the bundled DeepTune LSTM models), which goes to
/// `suffix`.
std::string withoutDeepTuneSuffix(const std::string& name, std::string& suffix) {
  const std::string deeptune = "-deeptune";
  if (name.size() > deeptune.size() &&
      name.compare(name.size() - deeptune.size(), deeptune.size(), deeptune) == 0) {
    suffix = deeptune;
    return name.substr(0, name.size() - deeptune.size());
  }
  return name;
}

}  // namespace

std::string findBundledModel(const std::string& platform) {
  std::string suffix;
  const std::string name = withoutDeepTuneSuffix(lowerCase(platform), suffix);
  if (name != "amd" && name != "nvidia") {
    throw model::ModelError("unknown --platform '" + platform +
                            "' (amd or nvidia; amd-deeptune or nvidia-deeptune for the LSTM)");
  }
  return findModelFile("devmap-" + name + suffix + ".model");
}

std::string findDevmapModel(const std::string& argument) {
  std::error_code ec;
  if (std::filesystem::exists(argument, ec)) return argument;
  std::string suffix;
  const std::string name = withoutDeepTuneSuffix(lowerCase(argument), suffix);
  if (name == "opencl-lm" && suffix.empty()) return findModelFile("opencl-lm.model");
  return name == "amd" || name == "nvidia" ? findBundledModel(name + suffix) : "";
}

std::string findBundledCoarseningModel(const std::string& gpu) {
  std::string suffix;
  const std::string name = withoutDeepTuneSuffix(lowerCase(gpu), suffix);
  if (name != "cypress" && name != "tahiti" && name != "fermi" && name != "kepler") {
    throw model::ModelError("unknown --platform '" + gpu +
                            "' for coarsening (Cypress, Tahiti, Fermi or Kepler; GPU-deeptune "
                            "for the LSTM)");
  }
  return findModelFile("coarsening-" + name + suffix + ".model");
}

}  // namespace deeptune::api
