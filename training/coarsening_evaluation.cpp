// Thread coarsening, leave-one-kernel-out per device: static, fixed, Magni and DeepTune (scratch
// or transferred, per device or shared, single or ensembles with a fallback).
#include "training/coarsening_evaluation.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>

#include "baselines/fixed_factor.hpp"
#include "data/parallel_for.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "evaluation/protocol.hpp"
#include "model/coarsening_data.hpp"
#include "training/magni_cascade.hpp"
#include "training/model_training.hpp"
#include "training/training_error.hpp"

namespace deeptune::training {
namespace {

constexpr size_t kAllDevices = std::numeric_limits<size_t>::max();
constexpr uint64_t kEnsembleSeedStride = 100003;

/// One trained method's job: a run and a held-out kernel of one device, or of every device at
/// once (a shared network).
struct Job {
  size_t device = 0;  ///< kAllDevices for a shared network
  std::string method;
  int run = 0;
  std::string heldOut;        ///< the held-out kernel's name
  uint64_t seed = 0;          ///< the first network's
  std::vector<size_t> slots;  ///< the predictions it fills, one per device predicted
};

evaluation::CoarseningPrediction record(const std::string& device, const std::string& method,
                                        int run, const data::CoarseningKernel& kernel, int factor) {
  evaluation::CoarseningPrediction p;
  p.device = device;
  p.method = method;
  p.run = run;
  p.kernel = kernel.kernel;
  p.factor = factor;
  p.speedup = kernel.speedup(factor);
  p.bestFactor = kernel.bestFactor;
  p.oracle = kernel.speedup(kernel.bestFactor);
  return p;
}

const evaluation::CoarseningPrediction* findResumed(const CoarseningEvaluationOptions& options,
                                                    const std::string& device,
                                                    const std::string& method, int run,
                                                    const std::string& kernel) {
  if (options.resumed == nullptr) return nullptr;
  for (const evaluation::CoarseningPrediction& p : *options.resumed) {
    if (p.device == device && p.method == method && p.run == run && p.kernel == kernel) return &p;
  }
  return nullptr;
}

/// Everything the learned jobs share: the data as examples, the network's metadata, and the
/// per-run pretrained language models of deeptune-tl's "pretrained" mode.
class LearnedSetting {
 public:
  LearnedSetting(const std::vector<std::string>& devices,
                 const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice,
                 const tokenizer::Vocabulary& vocabulary,
                 const CoarseningEvaluationOptions& options)
      : kernels_(kernelsByDevice), options_(options) {
    info_ = model::coarseningModelInfo(vocabulary, options.maxLength);
    if (options.sharedDevices) {
      for (const std::string& device : devices) info_.auxInputs.push_back("device:" + device);
    }
    for (size_t d = 0; d < kernelsByDevice.size(); ++d) {
      rows_.push_back(model::coarseningExamples(kernelsByDevice[d], vocabulary, options.maxLength));
      if (!options.sharedDevices) continue;
      for (model::Example& row : rows_.back()) {
        row.aux.assign(devices.size(), 0.0f);
        row.aux[d] = 1.0f;
      }
    }
  }

  const model::ModelInfo& info() const { return info_; }

  /// One training's examples: the kernels `training` and `test` accept in `scope`, with the
  /// test rows' origins, and the metadata its networks are built with. A network from scratch
  /// under a per-fold vocabulary reads the tokens of the training kernels' vocabulary.
  struct Fold {
    model::ModelInfo info;
    std::vector<model::Example> training, test;
    std::vector<std::pair<size_t, size_t>> testOrigins;
    std::vector<std::string> trainingKernels, testKernels;
  };
  Fold fold(size_t scope, const std::function<bool(const std::string&)>& training,
            const std::function<bool(const std::string&)>& test, bool transfer) const {
    Fold f{info_, {}, {}, {}, {}, {}};
    std::vector<std::pair<size_t, size_t>> trainingOrigins;
    f.training = rows(scope, training, &trainingOrigins);
    f.test = rows(scope, test, &f.testOrigins);
    std::vector<data::CoarseningKernel> seen;
    for (const auto& [d, k] : trainingOrigins) {
      const data::CoarseningKernel& kernel = kernels_[d][k];
      if (std::find(f.trainingKernels.begin(), f.trainingKernels.end(), kernel.kernel) ==
          f.trainingKernels.end()) {
        f.trainingKernels.push_back(kernel.kernel);
        seen.push_back(kernel);
      }
    }
    for (const auto& [d, k] : f.testOrigins) f.testKernels.push_back(kernels_[d][k].kernel);
    if (transfer || !options_.vocabularyPerFold) return f;
    const tokenizer::Vocabulary vocabulary =
        model::coarseningVocabulary(seen, "the fold's training kernels");
    f.info.vocabulary = vocabulary.tokens();
    const auto reencode = [&](std::vector<model::Example>& examples,
                              const std::vector<std::pair<size_t, size_t>>& origins) {
      for (size_t i = 0; i < examples.size(); ++i) {
        const auto [d, k] = origins[i];
        examples[i].tokens =
            model::coarseningExamples({kernels_[d][k]}, vocabulary, options_.maxLength)
                .front()
                .tokens;
      }
    };
    reencode(f.training, trainingOrigins);
    reencode(f.test, f.testOrigins);
    return f;
  }
  std::vector<model::DeepTuneModel>& pretrained() { return pretrained_; }

  /// The rows of `scope` (one device or kAllDevices) whose kernel `chosen` accepts, with where
  /// they come from (device, kernel index).
  std::vector<model::Example> rows(
      size_t scope, const std::function<bool(const std::string&)>& chosen,
      std::vector<std::pair<size_t, size_t>>* origins = nullptr) const {
    std::vector<model::Example> picked;
    for (size_t d = 0; d < kernels_.size(); ++d) {
      if (scope != kAllDevices && scope != d) continue;
      for (size_t k = 0; k < kernels_[d].size(); ++k) {
        if (!chosen(kernels_[d][k].kernel)) continue;
        picked.push_back(rows_[d][k]);
        if (origins != nullptr) origins->emplace_back(d, k);
      }
    }
    return picked;
  }

  /// The probabilities of the fold's test rows, averaged over options.ensemble networks trained
  /// on its training rows.
  std::vector<std::vector<float>> ensemblePredict(const Fold& fold, bool transfer, int run,
                                                  uint64_t seed) const {
    if (options_.trainingSeen) {
      std::lock_guard<std::mutex> lock(seenMutex_);
      options_.trainingSeen(
          {transfer, fold.trainingKernels, fold.testKernels, fold.info.vocabulary});
    }
    const std::vector<model::Example>& training = fold.training;
    std::vector<model::Example> test = fold.test;
    for (model::Example& row : test) row.label = -1;
    std::vector<std::vector<float>> mean(test.size());
    for (int e = 0; e < options_.ensemble; ++e) {
      const uint64_t networkSeed = seed + kEnsembleSeedStride * static_cast<uint64_t>(e);
      model::DeepTuneModel network(fold.info, networkSeed);
      if (transfer) {
        network.transferLanguageModel(options_.transferMode == "pretrained"
                                          ? pretrained_.at(static_cast<size_t>(run))
                                          : *options_.transferSource);
      }
      model::TrainOptions train = options_.train;
      train.seed = networkSeed;
      network.train(training, train);
      const auto probabilities = network.predict(test);
      for (size_t i = 0; i < test.size(); ++i) {
        mean[i].resize(probabilities[i].size(), 0.0f);
        for (size_t f = 0; f < probabilities[i].size(); ++f) {
          mean[i][f] += probabilities[i][f] / static_cast<float>(options_.ensemble);
        }
      }
    }
    return mean;
  }

  /// The confidence below which the fixed factor is taken, chosen by an inner cross-validation
  /// over `trainingNames` (the outer fold's training kernels) on `scope`: the threshold (0, each
  /// inner confidence, or above 1) with the best total speedup, the lowest on ties.
  double fallbackThreshold(size_t scope, const std::vector<std::string>& trainingNames,
                           bool transfer, int run, uint64_t seed) const {
    const evaluation::Protocol folds =
        evaluation::interleavedFolds(trainingNames.size(), options_.fallbackFolds);
    struct Inner {
      double confidence, model, fixed;
    };
    std::vector<Inner> inner;
    for (int fold = 0; fold < folds.folds; ++fold) {
      std::vector<std::string> heldOut;
      for (size_t i : folds.rowsOf(fold).test) heldOut.push_back(trainingNames[i]);
      const auto isHeldOut = [&](const std::string& name) {
        return std::find(heldOut.begin(), heldOut.end(), name) != heldOut.end();
      };
      const auto isTraining = [&](const std::string& name) {
        return !isHeldOut(name) &&
               std::find(trainingNames.begin(), trainingNames.end(), name) != trainingNames.end();
      };
      const Fold innerFold = this->fold(scope, isTraining, isHeldOut, transfer);
      const auto probabilities =
          ensemblePredict(innerFold, transfer, run, seed + 7919 * static_cast<uint64_t>(fold + 1));
      for (size_t i = 0; i < innerFold.test.size(); ++i) {
        const auto [d, k] = innerFold.testOrigins[i];
        const data::CoarseningKernel& kernel = kernels_[d][k];
        std::vector<data::CoarseningKernel> innerTraining;
        for (const data::CoarseningKernel& other : kernels_[d]) {
          if (isTraining(other.kernel)) innerTraining.push_back(other);
        }
        const auto [factor, confidence] = choice(probabilities[i]);
        inner.push_back({confidence, kernel.speedup(factor),
                         kernel.speedup(baselines::bestFixedFactor(innerTraining))});
      }
    }
    double best = 0, bestTotal = -1;
    std::vector<double> candidates = {0.0, 2.0};
    for (const Inner& row : inner) candidates.push_back(row.confidence);
    std::sort(candidates.begin(), candidates.end());
    for (double threshold : candidates) {
      double total = 0;
      for (const Inner& row : inner) total += row.confidence >= threshold ? row.model : row.fixed;
      if (total > bestTotal + 1e-12) {
        bestTotal = total;
        best = threshold;
      }
    }
    return best;
  }

  /// The factor of the highest probability, and that probability.
  static std::pair<int, double> choice(const std::vector<float>& probabilities) {
    const size_t best = static_cast<size_t>(
        std::max_element(probabilities.begin(), probabilities.end()) - probabilities.begin());
    return {data::coarseningFactors()[best], probabilities[best]};
  }

 private:
  const std::vector<std::vector<data::CoarseningKernel>>& kernels_;
  const CoarseningEvaluationOptions& options_;
  model::ModelInfo info_;
  std::vector<std::vector<model::Example>> rows_;  ///< per device, per kernel
  std::vector<model::DeepTuneModel> pretrained_;   ///< per run
  mutable std::mutex seenMutex_;                   ///< serializes options_.trainingSeen
};

/// data::parallelFor, a task's failure thrown as TrainingError with its message.
void runParallel(size_t count, int workers, const std::function<void(size_t)>& task) {
  try {
    data::parallelFor(count, workers, task);
  } catch (const std::exception& e) {
    throw TrainingError(e.what());
  }
}

/// The checks of the options and the data that come before any training.
void checkEvaluation(const std::vector<std::string>& devices,
                     const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice,
                     const CoarseningEvaluationOptions& options) {
  if (devices.size() != kernelsByDevice.size()) throw TrainingError("one kernel list per device");
  const bool wantsTransfer = std::find(options.methods.begin(), options.methods.end(),
                                       "deeptune-tl") != options.methods.end();
  if (wantsTransfer && options.transferSource == nullptr) {
    throw TrainingError("deeptune-tl needs a model to transfer from");
  }
  if (options.ensemble < 1 || options.fallbackFolds < 0 || options.fallbackFolds == 1) {
    throw TrainingError("an ensemble of at least 1 network; fallback folds 0 or at least 2");
  }
  for (size_t d = 0; d < devices.size(); ++d) {
    const std::vector<data::CoarseningKernel>& kernels = kernelsByDevice[d];
    if (kernels.size() < 3) {
      throw TrainingError("device '" + devices[d] + "': " + std::to_string(kernels.size()) +
                          " kernels, leave-one-kernel-out needs at least 3");
    }
    for (const std::string& method : options.methods) {
      const std::vector<std::string>& known = evaluation::coarseningMethods();
      if (std::find(known.begin(), known.end(), method) == known.end()) {
        throw TrainingError("unknown coarsening method '" + method +
                            "' (static, fixed, shipped, magni, deeptune, deeptune-tl)");
      }
      if (method != "magni") continue;
      for (const data::CoarseningKernel& kernel : kernels) {
        if (kernel.pca.empty()) {
          throw TrainingError("magni needs Magni et al.'s features (columns PCA1..PCA7); kernel '" +
                              kernel.kernel + "' has none");
        }
      }
    }
  }
}

/// The trainings to run and the predictions they fill: every held-out kernel of every device,
/// method and run; what needs no training (static, fixed) or was resumed is predicted at once.
class EvaluationPlan {
 public:
  std::vector<evaluation::CoarseningPrediction> predictions;
  std::vector<Job> jobs;

  EvaluationPlan(const std::vector<std::string>& devices,
                 const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice,
                 const CoarseningEvaluationOptions& options) {
    for (size_t d = 0; d < devices.size(); ++d) {
      const evaluation::Protocol protocol =
          evaluation::leaveOneKernelOut(kernelsByDevice[d].size());
      for (const std::string& method : options.methods) {
        const bool learned = method == "deeptune" || method == "deeptune-tl";
        for (int run = 0; run < (learned ? options.runs : 1); ++run) {
          for (int fold = 0; fold < protocol.folds; ++fold) {
            add(devices[d], d, kernelsByDevice[d], protocol.rowsOf(fold), method, run, options);
          }
        }
      }
    }
  }

  size_t trainings() const {
    size_t total = 0;
    for (const Job& job : jobs) total += job.slots.size();
    return total;
  }

 private:
  /// The prediction of the held-out kernel of `fold` (one of `kernels`).
  void add(const std::string& device, size_t d, const std::vector<data::CoarseningKernel>& kernels,
           const evaluation::FoldRows& fold, const std::string& method, int run,
           const CoarseningEvaluationOptions& options) {
    const size_t k = fold.test.front();
    const bool learned = method == "deeptune" || method == "deeptune-tl";
    if (!learned && method != "magni") {  // no training
      std::vector<data::CoarseningKernel> training;
      for (size_t i : fold.train) training.push_back(kernels[i]);
      const int factor = method == "static"    ? 1
                         : method == "shipped" ? fixedFactorOf(training)  // train's default
                                               : baselines::bestFixedFactor(training);
      predictions.push_back(record(device, method, run, kernels[k], factor));
      return;
    }
    if (const evaluation::CoarseningPrediction* earlier =
            findResumed(options, device, method, run, kernels[k].kernel)) {
      predictions.push_back(record(device, method, run, kernels[k], earlier->factor));
      predictions.back().fellBack = earlier->fellBack;
      return;
    }
    const uint64_t seed =
        options.train.seed + 1000 * static_cast<uint64_t>(run) + static_cast<uint64_t>(k);
    Job* job = nullptr;
    if (learned && options.sharedDevices) {  // one job per (method, run, kernel)
      for (Job& existing : jobs) {
        if (existing.device == kAllDevices && existing.method == method && existing.run == run &&
            existing.heldOut == kernels[k].kernel) {
          job = &existing;
        }
      }
      if (job == nullptr) jobs.push_back({kAllDevices, method, run, kernels[k].kernel, seed, {}});
    } else {
      jobs.push_back({d, method, run, kernels[k].kernel, seed, {}});
    }
    if (job == nullptr) job = &jobs.back();
    job->slots.push_back(predictions.size());
    predictions.push_back(record(device, method, run, kernels[k], 1));
  }
};

/// deeptune-tl's "pretrained" encoders: one next-token language model per run.
void pretrainEncoders(const std::vector<Job>& jobs, const CoarseningEvaluationOptions& options,
                      LearnedSetting& setting) {
  bool pretrains = false;
  for (const Job& job : jobs) pretrains |= job.method == "deeptune-tl";
  if (!pretrains) return;
  if (options.transferMode == "model") return;
  if (options.transferMode != "pretrained") {
    throw TrainingError("deeptune-tl's transfer is 'model' or 'pretrained', not '" +
                        options.transferMode + "'");
  }
  if (options.pretrainSequences.empty()) {
    throw TrainingError("deeptune-tl's pretrained encoder needs sequences to pretrain on");
  }
  std::vector<std::optional<model::DeepTuneModel>> models(static_cast<size_t>(options.runs));
  runParallel(models.size(), options.workers, [&](size_t run) {
    model::PretrainOptions pretrain = options.pretrain;
    pretrain.seed = options.train.seed + 1000 * run + 999;
    models[run].emplace(setting.info(), pretrain.seed);
    models[run]->pretrainLanguageModel(options.pretrainSequences, pretrain);
  });
  for (auto& model : models) setting.pretrained().push_back(std::move(*model));
}

/// Magni's cascade for a job's held-out kernel.
void runMagniJob(const Job& job,
                 const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice,
                 std::vector<evaluation::CoarseningPrediction>& predictions) {
  std::vector<data::CoarseningKernel> training;
  const data::CoarseningKernel* heldOut = nullptr;
  for (const auto& kernel : kernelsByDevice[job.device]) {
    if (kernel.kernel == job.heldOut) {
      heldOut = &kernel;
    } else {
      training.push_back(kernel);
    }
  }
  const int factor = predictWithMagni(training, *heldOut, job.seed);
  evaluation::CoarseningPrediction& slot = predictions[job.slots.front()];
  slot = record(slot.device, job.method, job.run, *heldOut, factor);
}

/// A DeepTune job: the ensemble trained on the other kernels predicts the held-out one on each
/// device of the job, falling back to the fixed factor below the inner-CV threshold.
void runDeepTuneJob(const Job& job, const std::vector<std::string>& devices,
                    const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice,
                    const CoarseningEvaluationOptions& options, const LearnedSetting& setting,
                    std::vector<evaluation::CoarseningPrediction>& predictions) {
  const bool transfer = job.method == "deeptune-tl";
  const auto isHeldOut = [&](const std::string& name) { return name == job.heldOut; };
  const auto isTraining = [&](const std::string& name) { return name != job.heldOut; };
  const LearnedSetting::Fold fold = setting.fold(job.device, isTraining, isHeldOut, transfer);
  const auto probabilities = setting.ensemblePredict(fold, transfer, job.run, job.seed);
  double threshold = 0;
  if (options.fallbackFolds > 0) {
    std::vector<std::string> names;  // the outer fold's training kernels, in data order
    for (size_t d = 0; d < kernelsByDevice.size(); ++d) {
      if (job.device != kAllDevices && job.device != d) continue;
      for (const auto& kernel : kernelsByDevice[d]) {
        if (kernel.kernel != job.heldOut &&
            std::find(names.begin(), names.end(), kernel.kernel) == names.end()) {
          names.push_back(kernel.kernel);
        }
      }
    }
    threshold = setting.fallbackThreshold(job.device, names, transfer, job.run, job.seed);
  }
  for (size_t i = 0; i < fold.test.size(); ++i) {
    const auto [d, k] = fold.testOrigins[i];
    std::vector<data::CoarseningKernel> training;
    for (const auto& kernel : kernelsByDevice[d]) {
      if (kernel.kernel != job.heldOut) training.push_back(kernel);
    }
    auto [factor, confidence] = LearnedSetting::choice(probabilities[i]);
    const bool fallBack = confidence < threshold;
    if (fallBack) factor = baselines::bestFixedFactor(training);
    for (size_t slot : job.slots) {
      if (predictions[slot].device != devices[d]) continue;
      predictions[slot] = record(devices[d], job.method, job.run, kernelsByDevice[d][k], factor);
      predictions[slot].fellBack = fallBack;
    }
  }
}

}  // namespace

std::vector<evaluation::CoarseningPrediction> evaluateCoarsening(
    const std::vector<std::string>& devices,
    const std::vector<std::vector<data::CoarseningKernel>>& kernelsByDevice,
    const tokenizer::Vocabulary& vocabulary, const CoarseningEvaluationOptions& options,
    const CoarseningProgress& progress) {
  checkEvaluation(devices, kernelsByDevice, options);
  EvaluationPlan plan(devices, kernelsByDevice, options);
  const size_t total = plan.trainings();
  LearnedSetting setting(devices, kernelsByDevice, vocabulary, options);
  pretrainEncoders(plan.jobs, options, setting);
  std::atomic<size_t> done{0};
  std::mutex progressMutex;
  runParallel(plan.jobs.size(), options.workers, [&](size_t j) {
    const Job& job = plan.jobs[j];
    if (job.method == "magni") {
      runMagniJob(job, kernelsByDevice, plan.predictions);
    } else {
      runDeepTuneJob(job, devices, kernelsByDevice, options, setting, plan.predictions);
    }
    std::lock_guard<std::mutex> lock(progressMutex);
    for (size_t slot : job.slots) {
      const size_t finished = ++done;
      if (progress) progress(plan.predictions[slot], finished, total);
    }
  });
  return plan.predictions;
}

}  // namespace deeptune::training
