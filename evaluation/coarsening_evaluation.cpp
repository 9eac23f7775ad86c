// Thread coarsening, leave-one-kernel-out per device: static, fixed and DeepTune (scratch or TL).
#include "evaluation/coarsening_evaluation.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "baselines/fixed_factor.hpp"
#include "baselines/magni_cascade.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "model/coarsening_data.hpp"

namespace deeptune::evaluation {
namespace {

/// One learned training: a method, a run, a held-out kernel of a device.
struct Job {
  size_t device = 0;
  std::string method;
  int run = 0;
  size_t heldOut = 0;
};

CoarseningPrediction record(const std::string& device, const std::string& method, int run,
                            const model::CoarseningKernel& kernel, int factor) {
  CoarseningPrediction p;
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

int predictWithDeepTune(const std::vector<model::CoarseningKernel>& kernels, size_t heldOut,
                        const tokenizer::Vocabulary& vocabulary,
                        const CoarseningEvaluationOptions& options, bool transfer, uint64_t seed) {
  std::vector<model::CoarseningKernel> training;
  for (size_t k = 0; k < kernels.size(); ++k) {
    if (k != heldOut) training.push_back(kernels[k]);
  }
  model::DeepTuneModel network(model::coarseningModelInfo(vocabulary, options.maxLength), seed);
  if (transfer) network.transferLanguageModel(*options.transferSource);
  model::TrainOptions train = options.train;
  train.seed = seed;
  network.train(model::coarseningExamples(training, vocabulary, options.maxLength), train);
  std::vector<model::Example> test =
      model::coarseningExamples({kernels[heldOut]}, vocabulary, options.maxLength);
  test.front().label = -1;
  const std::vector<float> probabilities = network.predict(test).front();
  const size_t best = static_cast<size_t>(
      std::max_element(probabilities.begin(), probabilities.end()) - probabilities.begin());
  return model::coarseningFactors()[best];
}

const CoarseningPrediction* findResumed(const CoarseningEvaluationOptions& options,
                                        const std::string& device, const std::string& method,
                                        int run, const std::string& kernel) {
  if (options.resumed == nullptr) return nullptr;
  for (const CoarseningPrediction& p : *options.resumed) {
    if (p.device == device && p.method == method && p.run == run && p.kernel == kernel) return &p;
  }
  return nullptr;
}

}  // namespace

std::vector<CoarseningPrediction> evaluateCoarsening(
    const std::vector<std::string>& devices,
    const std::vector<std::vector<model::CoarseningKernel>>& kernelsByDevice,
    const tokenizer::Vocabulary& vocabulary, const CoarseningEvaluationOptions& options,
    const CoarseningProgress& progress) {
  if (devices.size() != kernelsByDevice.size()) throw EvaluationError("one kernel list per device");
  const bool wantsTransfer = std::find(options.methods.begin(), options.methods.end(),
                                       "deeptune-tl") != options.methods.end();
  if (wantsTransfer && options.transferSource == nullptr) {
    throw EvaluationError("deeptune-tl needs a model to transfer from");
  }
  std::vector<CoarseningPrediction> predictions;
  std::vector<Job> jobs;
  std::vector<size_t> slots;  // index into predictions of each job
  for (size_t d = 0; d < devices.size(); ++d) {
    const std::vector<model::CoarseningKernel>& kernels = kernelsByDevice[d];
    if (kernels.size() < 3) {
      throw EvaluationError("device '" + devices[d] + "': " + std::to_string(kernels.size()) +
                            " kernels, leave-one-kernel-out needs at least 3");
    }
    for (const std::string& method : options.methods) {
      const bool learned = method == "deeptune" || method == "deeptune-tl";
      const std::vector<std::string>& known = coarseningMethods();
      if (std::find(known.begin(), known.end(), method) == known.end()) {
        throw EvaluationError("unknown coarsening method '" + method +
                              "' (static, fixed, magni, deeptune, deeptune-tl)");
      }
      if (method == "magni") {
        for (const model::CoarseningKernel& kernel : kernels) {
          if (kernel.pca.empty()) {
            throw EvaluationError(
                "magni needs Magni et al.'s features (columns PCA1..PCA7); kernel '" +
                kernel.kernel + "' has none");
          }
        }
      }
      for (int run = 0; run < (learned ? options.runs : 1); ++run) {
        for (size_t k = 0; k < kernels.size(); ++k) {
          if (learned || method == "magni") {  // trained: a job for the workers
            if (const CoarseningPrediction* earlier =
                    findResumed(options, devices[d], method, run, kernels[k].kernel)) {
              predictions.push_back(record(devices[d], method, run, kernels[k], earlier->factor));
              continue;
            }
            slots.push_back(predictions.size());
            jobs.push_back({d, method, run, k});
            predictions.push_back(record(devices[d], method, run, kernels[k], 1));
            continue;
          }
          std::vector<model::CoarseningKernel> training = kernels;
          training.erase(training.begin() + static_cast<std::ptrdiff_t>(k));
          const int factor = method == "static" ? 1 : baselines::bestFixedFactor(training);
          predictions.push_back(record(devices[d], method, run, kernels[k], factor));
        }
      }
    }
  }
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex failureMutex;
  std::string failure;
  std::mutex progressMutex;
  auto worker = [&] {
    for (size_t j = next++; j < jobs.size(); j = next++) {
      const Job& job = jobs[j];
      try {
        const auto& kernels = kernelsByDevice[job.device];
        const uint64_t seed =
            options.train.seed + 1000 * static_cast<uint64_t>(job.run) + job.heldOut;
        int factor = 1;
        if (job.method == "magni") {
          std::vector<model::CoarseningKernel> training = kernels;
          training.erase(training.begin() + static_cast<std::ptrdiff_t>(job.heldOut));
          factor = baselines::predictWithMagni(training, kernels[job.heldOut], seed);
        } else {
          factor = predictWithDeepTune(kernels, job.heldOut, vocabulary, options,
                                       job.method == "deeptune-tl", seed);
        }
        CoarseningPrediction& slot = predictions[slots[j]];
        slot = record(devices[job.device], job.method, job.run, kernels[job.heldOut], factor);
        const size_t finished = ++done;
        if (progress) {
          std::lock_guard<std::mutex> lock(progressMutex);
          progress(slot, finished, jobs.size());
        }
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(failureMutex);
        if (failure.empty()) failure = e.what();
        next = jobs.size();
      }
    }
  };
  std::vector<std::thread> threads;
  for (int w = 1; w < std::max(1, options.workers); ++w) threads.emplace_back(worker);
  worker();
  for (std::thread& thread : threads) thread.join();
  if (!failure.empty()) throw EvaluationError(failure);
  return predictions;
}

}  // namespace deeptune::evaluation
