// Advisor: legality, the model, the fallback and a thread-safe decision cache.
#include "api/advisor.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "api/api_error.hpp"
#include "api/prediction_client.hpp"
#include "api/predictor.hpp"
#include "data/checksum.hpp"
#include "runtime/devices.hpp"

namespace deeptune::api {
namespace {

/// The project's checksum (data/checksum.hpp) continued over one number's bytes.
uint64_t withNumber(uint64_t hash, uint64_t value) {
  return data::fnv1a64({reinterpret_cast<const char*>(&value), sizeof value}, hash);
}

/// A kernel (by raw or normalized source hash) and the sizes the model is told.
struct SizeKey {
  uint64_t kernel = 0;
  uint64_t transfer = 0;
  size_t wgsize = 0;
  bool operator==(const SizeKey& o) const {
    return kernel == o.kernel && transfer == o.transfer && wgsize == o.wgsize;
  }
};
struct SizeKeyHash {
  size_t operator()(const SizeKey& k) const {
    return withNumber(withNumber(k.kernel, k.transfer), k.wgsize);
  }
};

std::unique_ptr<DeviceModel> openModel(const AdvisorOptions& options) {
  if (options.outOfProcess) {
    std::vector<std::string> command = {findDeeptuneExecutable(options.deeptuneExecutable),
                                        "__predict-server"};
    if (!options.model.empty()) {
      command.insert(command.end(), {"--model", options.model});
    } else {
      command.insert(command.end(), {"--platform", options.platform});
    }
    return std::make_unique<PredictionClient>(command, options.predictionTimeoutSeconds);
  }
  return std::make_unique<Predictor>(options.model.empty() ? findBundledModel(options.platform)
                                                           : options.model);
}

/// Throws ApiError for options no advisor can follow.
void checkOptions(const AdvisorOptions& options) {
  if (!(options.minProbability >= 0 && options.minProbability <= 1)) {
    throw ApiError("AdvisorOptions::minProbability is 0 to 1, not " +
                   std::to_string(options.minProbability));
  }
}

}  // namespace

struct Advisor::Impl {
  AdvisorOptions options;
  std::unique_ptr<DeviceModel> model;
  std::string modelProblem;
  std::mutex modelMutex;  ///< one model call at a time (runners need not be thread-safe)
  mutable std::mutex cacheMutex;
  std::unordered_map<cl_device_id, DeviceLimits> limits;
  std::unordered_map<uint64_t, uint64_t> normalizedOf;  ///< raw kernel key -> normalized hash
  std::unordered_map<SizeKey, Decision, SizeKeyHash> decisions;  ///< by normalized hash
  std::unordered_map<SizeKey, Decision, SizeKeyHash> fallbacks;  ///< by raw kernel key
  std::atomic<size_t> modelCalls{0};

  /// Model work for decisionBudgetMs: one background thread, started on first use, runs the
  /// queued first decisions in order; `deferred` holds each one's future until it is done.
  std::mutex workMutex;
  std::condition_variable workChanged;
  std::deque<std::function<void()>> work;
  std::unordered_map<SizeKey, std::shared_future<Decision>, SizeKeyHash> inFlight;
  size_t running = 0;  ///< queued or running tasks
  bool stopping = false;
  std::thread worker;
  std::atomic<pid_t> owner{::getpid()};  ///< the process whose thread `worker` is

  /// In a process forked from the one that ran the background thread: that thread, its queue
  /// and its unfinished answers stayed in the parent; this process starts its own when needed.
  void leaveParentsWork() {
    if (owner.load() == ::getpid()) return;
    std::lock_guard<std::mutex> lock(workMutex);
    if (owner.load() == ::getpid()) return;
    owner = ::getpid();
    new (&worker) std::thread();  // the parent's thread is not in this process: never join it
    work.clear();
    inFlight.clear();
    running = 0;
  }

  ~Impl() {
    leaveParentsWork();
    {
      std::lock_guard<std::mutex> lock(workMutex);
      stopping = true;
      work.clear();  // nobody can wait for them any more
    }
    workChanged.notify_all();
    if (worker.joinable()) worker.join();
  }

  void workLoop() {
    std::unique_lock<std::mutex> lock(workMutex);
    for (;;) {
      workChanged.wait(lock, [this] { return stopping || !work.empty(); });
      if (work.empty()) return;
      std::function<void()> task = std::move(work.front());
      work.pop_front();
      lock.unlock();
      task();
      lock.lock();
      --running;
      workChanged.notify_all();
    }
  }

  std::vector<DeviceLimits> candidateLimits(const std::vector<cl_device_id>& candidates) {
    std::vector<DeviceLimits> result;
    std::lock_guard<std::mutex> lock(cacheMutex);
    for (size_t i = 0; i < candidates.size(); ++i) {
      auto found = limits.find(candidates[i]);
      if (found == limits.end()) {
        runtime::DeviceInfo info;
        try {
          info = runtime::describeDevice(candidates[i]);
        } catch (const std::exception& e) {
          throw ApiError("candidate device " + std::to_string(i) +
                         " is not a valid OpenCL device: " + e.what());
        }
        DeviceLimits device{info.name, info.type, static_cast<size_t>(info.maxWorkGroupSize),
                            info.maxWorkItemSizes};
        found = limits.emplace(candidates[i], std::move(device)).first;
      }
      result.push_back(found->second);
    }
    return result;
  }

  /// The fallback's answer for `transfer` bytes.
  /// The fallback rule's device type for `transfer` bytes.
  std::string ruleDeviceType(uint64_t transfer) const {
    return transfer >= options.fallbackGpuBytes ? "GPU" : "CPU";
  }

  Decision fallback(const std::string& kernel, uint64_t transfer, const std::string& reason) const {
    Decision decision;
    decision.kernel = kernel;
    decision.deviceType = ruleDeviceType(transfer);
    decision.fallback = true;
    decision.method = "fallback";
    decision.reason = reason;
    return decision;
  }

  /// The model's `decision` when its probability is at least options.minProbability; else the
  /// fallback's device, flagged, with the model's probability of that device.
  void applyMinProbability(Decision& decision, uint64_t transfer) const {
    if (decision.fallback || !(decision.probability < options.minProbability)) return;
    char reason[200];
    std::snprintf(reason, sizeof reason,
                  "the model is unsure: probability %.3f of %s, below the advisor's minimum %g",
                  decision.probability, decision.deviceType.c_str(), options.minProbability);
    const std::string ruled = ruleDeviceType(transfer);
    if (ruled != decision.deviceType) {
      decision.probability = 1 - decision.probability;
      decision.modelDevice.clear();  // the rule chooses a device type, not a measured device
    }
    decision.deviceType = ruled;
    decision.fallback = true;
    decision.method = "fallback";
    decision.reason = reason;
  }

  /// The cached answer for the kernel and sizes, if any.
  bool lookUp(uint64_t rawKey, const SizeKey& sizes, Decision& out) const {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto normalized = normalizedOf.find(rawKey);
    if (normalized != normalizedOf.end()) {
      auto found = decisions.find({normalized->second, sizes.transfer, sizes.wgsize});
      if (found != decisions.end()) {
        out = found->second;
        return true;
      }
    }
    auto failed = fallbacks.find(sizes);
    if (failed == fallbacks.end()) return false;
    out = failed->second;
    return true;
  }

  /// A source not seen before: its normalized hash (a rewrite, serialized with model calls).
  /// True, with `out`, when another source that normalizes alike has the answer cached.
  bool lookUpNormalized(const LaunchQuery& query, uint64_t rawKey, const SizeKey& sizes,
                        Decision& out) {
    uint64_t hash = 0;
    {
      std::lock_guard<std::mutex> lock(modelMutex);
      if (!model) return false;
      try {
        hash = model->normalizedHash(query.source, query.kernel, query.buildOptions);
      } catch (const std::exception&) {
        return false;  // predictDevice meets the same error and falls back
      }
    }
    if (hash == 0) return false;
    std::lock_guard<std::mutex> lock(cacheMutex);
    normalizedOf.emplace(rawKey, hash);
    auto found = decisions.find({hash, sizes.transfer, sizes.wgsize});
    if (found == decisions.end()) return false;
    out = found->second;
    return true;
  }

  /// Asks the model (serialized); a failure becomes the fallback. Stores the answer.
  Decision ask(const LaunchQuery& query, uint64_t rawKey, const SizeKey& sizes) {
    Decision decision;
    {
      std::lock_guard<std::mutex> lock(modelMutex);
      if (lookUp(rawKey, sizes, decision)) {  // another thread asked while this one waited
        decision.cached = true;
        return decision;
      }
      if (!model) {
        decision = fallback(query.kernel, sizes.transfer, "model unavailable: " + modelProblem);
      } else {
        try {
          ++modelCalls;
          decision = model->predictDevice(query.source, query.kernel, sizes.transfer, sizes.wgsize,
                                          query.buildOptions);
          if (decision.deviceType != "CPU" && decision.deviceType != "GPU") {
            decision = fallback(query.kernel, sizes.transfer,
                                "the model answered '" + decision.deviceType + "'");
          }
          applyMinProbability(decision, sizes.transfer);
        } catch (const std::exception& e) {
          decision = fallback(query.kernel, sizes.transfer, e.what());
        }
      }
    }
    decision.transferBytes = sizes.transfer;
    decision.wgsize = sizes.wgsize;
    std::lock_guard<std::mutex> lock(cacheMutex);
    if (decision.fallback && decision.normalizedHash == 0) {  // the model did not answer
      fallbacks.emplace(sizes, decision);
    } else {
      normalizedOf.emplace(rawKey, decision.normalizedHash);
      decisions.emplace(SizeKey{decision.normalizedHash, sizes.transfer, sizes.wgsize}, decision);
    }
    return decision;
  }

  /// The first decision for a kernel: the model's, from the background thread, when it comes
  /// within the budget; else the fallback, flagged deferred, while the model goes on.
  Decision askWithin(const LaunchQuery& query, uint64_t rawKey, const SizeKey& sizes) {
    leaveParentsWork();
    std::shared_future<Decision> answer;
    {
      std::lock_guard<std::mutex> lock(workMutex);
      auto found = inFlight.find(sizes);
      if (found != inFlight.end()) {
        answer = found->second;
      } else {
        auto promise = std::make_shared<std::promise<Decision>>();
        answer = promise->get_future().share();
        inFlight.emplace(sizes, answer);
        LaunchQuery copy;  // what the model reads; the caller's query may be gone by then
        copy.source = query.source;
        copy.kernel = query.kernel;
        copy.buildOptions = query.buildOptions;
        work.emplace_back([this, copy = std::move(copy), rawKey, sizes, promise] {
          Decision decision;
          try {
            if (lookUpNormalized(copy, rawKey, sizes, decision)) {
              decision.cached = true;
            } else {
              decision = ask(copy, rawKey, sizes);
            }
          } catch (const std::exception& e) {  // e.g. out of memory: a fallback, not a lost thread
            decision = fallback(copy.kernel, sizes.transfer, e.what());
          }
          promise->set_value(decision);
          std::lock_guard<std::mutex> done(workMutex);
          inFlight.erase(sizes);
        });
        ++running;
        if (!worker.joinable()) worker = std::thread([this] { workLoop(); });
      }
    }
    workChanged.notify_all();
    const auto budget = std::chrono::duration<double, std::milli>(options.decisionBudgetMs);
    if (answer.wait_for(budget) == std::future_status::ready) return answer.get();
    char budgetText[32];
    std::snprintf(budgetText, sizeof budgetText, "%g ms", options.decisionBudgetMs);
    Decision decision = fallback(query.kernel, sizes.transfer,
                                 std::string("the model had not answered within the budget of ") +
                                     budgetText + "; its answer is cached when it comes");
    decision.deferred = true;
    decision.transferBytes = sizes.transfer;
    decision.wgsize = sizes.wgsize;
    return decision;
  }
};

Advisor::Advisor(AdvisorOptions options) : impl_(std::make_unique<Impl>()) {
  checkOptions(options);
  impl_->options = std::move(options);
  try {
    impl_->model = openModel(impl_->options);
  } catch (const std::exception& e) {
    impl_->modelProblem = e.what();
  }
}

Advisor::Advisor(std::unique_ptr<DeviceModel> model, AdvisorOptions options)
    : impl_(std::make_unique<Impl>()) {
  checkOptions(options);
  impl_->options = std::move(options);
  impl_->model = std::move(model);
  if (!impl_->model) impl_->modelProblem = "no model given";
}

Advisor::~Advisor() = default;

std::string Advisor::modelProblem() const { return impl_->modelProblem; }

std::string Advisor::modelPath() const {
  if (!impl_->model) return "";
  try {
    return impl_->model->modelPath();
  } catch (const std::exception&) {
    return "";
  }
}

size_t Advisor::modelCalls() const { return impl_->modelCalls.load(); }

void Advisor::finishDeferred() {
  impl_->leaveParentsWork();
  std::unique_lock<std::mutex> lock(impl_->workMutex);
  impl_->workChanged.wait(lock, [this] { return impl_->running == 0; });
}

Decision Advisor::advise(const LaunchQuery& query) {
  checkRange(query.range);
  if (query.candidates.empty()) throw ApiError("advise: no candidate devices");
  // Legality first: refuse before asking the model when no candidate can run the range.
  const std::vector<DeviceLimits> limits = impl_->candidateLimits(query.candidates);
  std::string note;
  if (pickCandidate(limits, query.range, "", note) < 0) throw ApiError(note);

  const uint64_t transfer = query.transferBytes != 0 || query.args.empty()
                                ? query.transferBytes
                                : runtime::LaunchArg::transferBytes(query.args);
  const size_t wgsize = modelWorkGroupSize(query.range);
  // The source (kilobytes, hashed on every launch) with std::hash, which reads words rather than
  // bytes; the short kernel name and options continue it with the project's checksum.
  uint64_t rawKey = std::hash<std::string>{}(query.source);
  rawKey = data::fnv1a64(query.kernel, rawKey);
  rawKey = data::fnv1a64(std::string_view("\0", 1), rawKey);
  rawKey = data::fnv1a64(query.buildOptions, rawKey);
  const SizeKey sizes{rawKey, transfer, wgsize};
  Decision decision;
  if (impl_->lookUp(rawKey, sizes, decision)) {
    decision.cached = true;
  } else if (impl_->options.decisionBudgetMs > 0) {
    decision = impl_->askWithin(query, rawKey, sizes);  // the rewrite too runs in the background
  } else if (impl_->lookUpNormalized(query, rawKey, sizes, decision)) {
    decision.cached = true;
  } else {
    decision = impl_->ask(query, rawKey, sizes);
  }
  if (decision.cached && !query.kernel.empty()) decision.kernel = query.kernel;  // a look-alike's
  const int chosen =
      pickCandidate(limits, query.range, decision.deviceType, decision.note, decision.modelDevice);
  decision.device = query.candidates[static_cast<size_t>(chosen)];
  decision.deviceName = limits[static_cast<size_t>(chosen)].name;
  if (impl_->options.log) {
    try {
      impl_->options.log(decision);
    } catch (...) {  // a logging failure must not change the launch
    }
  }
  return decision;
}

}  // namespace deeptune::api
