// Advisor: an OpenCL application's kernel, candidate devices and sizes -> the device to use.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "deeptune/api/decision.hpp"
#include "deeptune/api/device_legality.hpp"
#include "deeptune/api/device_model.hpp"
#include "deeptune/runtime/launch_arg.hpp"

namespace deeptune::api {

/// The fallback, used when the model cannot answer: GPU when a launch moves at least
/// `fallbackGpuBytes` (CPU below), on the first legal candidate of that type (else any legal
/// one). 64 MiB is the threshold that does best on the paper's AMD data (docs/embedding.md).
constexpr uint64_t kDefaultFallbackGpuBytes = uint64_t{64} << 20;

/// How the advisor reaches its model and what it does without one.
struct AdvisorOptions {
  std::string model;  ///< devmap model file; empty: the bundled model of `platform`
  /// Bundled model: amd or nvidia (the default predictor), amd-deeptune or nvidia-deeptune (the
  /// DeepTune LSTM models).
  std::string platform = "amd";
  /// Ask a `deeptune __predict-server` process instead of running the model in this process:
  /// needed only with an OpenCL driver that loads an LLVM other than the rewriter's (15).
  bool outOfProcess = false;
  std::string deeptuneExecutable;         ///< outOfProcess: empty = $DEEPTUNE_EXECUTABLE or PATH
  double predictionTimeoutSeconds = 120;  ///< outOfProcess: per answer
  uint64_t fallbackGpuBytes = kDefaultFallbackGpuBytes;
  /// The model's answers whose probability is below this (0 to 1; 0: never) give way to the
  /// fallback's device, flagged `fallback` with the model's probability in `reason`: the shipped
  /// model's probability is calibrated on programs it did not learn from, so 0.8 means right
  /// about 8 times in 10 (docs/embedding.md measures what each threshold costs and gains).
  double minProbability = 0;
  /// At most this long (milliseconds) an advise() call waits for the model on a kernel it has
  /// not seen; past it, the call answers with the fallback (flagged `deferred`) while the model
  /// goes on in the advisor's background thread and caches its answer for the next launch.
  /// 0: wait for the model. Large generated kernels take up to a second to normalize
  /// (docs/embedding.md); an application that must never stall a launch sets e.g. 50.
  double decisionBudgetMs = 0;
  /// Called with every decision (cached ones too), on the thread that asked; must not throw.
  std::function<void(const Decision&)> log;
};

/// One launch the application is about to make.
struct LaunchQuery {
  std::string source;        ///< the program's OpenCL source
  std::string kernel;        ///< the kernel's name (empty: the source's only kernel)
  std::string buildOptions;  ///< the clBuildProgram options (their -D/-I reach the rewriter)
  std::vector<cl_device_id> candidates;  ///< devices the application can run it on, in order
  NDRange range;                         ///< 1-3 dimensions, local size optional
  uint64_t transferBytes = 0;  ///< bytes moved: inputs once, outputs twice (SPEC.md section 4)
  /// Or the launch's arguments, from which that rule computes transferBytes (when it is 0).
  std::vector<runtime::LaunchArg> args;
};

/// Decides the device for kernel launches: legality first (a candidate that cannot run the
/// range is never chosen), then the model, then the fallback when the model or the rewriter
/// fails (flagged in the decision, never an exception). Decisions are cached by the normalized
/// kernel's hash and the launch sizes; the cache and the model are shared by all threads
/// (advise() is thread-safe; model calls are serialized). The application keeps its context,
/// queues and buffers: the advisor only reads device properties.
class Advisor {
 public:
  /// Loads the model (in this process, or starts the service). A model that cannot be loaded
  /// is not an error: every decision then falls back, with the load error as its reason.
  /// Throws ApiError for a minProbability outside [0, 1].
  explicit Advisor(AdvisorOptions options = {});
  /// With another model runner (a test stand-in, a model of the user's own kind).
  Advisor(std::unique_ptr<DeviceModel> model, AdvisorOptions options = {});
  ~Advisor();
  Advisor(const Advisor&) = delete;
  Advisor& operator=(const Advisor&) = delete;

  /// The decision for `query`. Throws ApiError (api_error.hpp) for a malformed range, an empty
  /// candidate list or an invalid device, and when no candidate can run the range (naming each
  /// one's limit); runtime::RuntimeError for an invalid cl_mem among `args`. Never throws for
  /// what the model or the rewriter cannot do: that is a fallback.
  Decision advise(const LaunchQuery& query);

  /// Why the model is unavailable (every decision falls back), or empty.
  std::string modelProblem() const;
  /// The model file the advisor loaded (resolved path), or empty when none could be loaded or
  /// the model runner was handed in without a file.
  std::string modelPath() const;
  /// How many decisions asked the model (not served from the cache).
  size_t modelCalls() const;
  /// Waits until the background model work that decisionBudgetMs deferred has finished (its
  /// answers are then cached).
  void finishDeferred();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deeptune::api
