// Predictor: kernel source + launch sizes -> device, joining rewriter, tokenizer and model.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "deeptune/api/decision.hpp"
#include "deeptune/api/device_model.hpp"
#include "deeptune/data/source_options.hpp"

namespace deeptune::api {

/// The meaningful range of a launch's sizes: up to 1 PB moved, work-groups up to 2^20 items.
constexpr double kMaxTransferBytes = 1e15;
constexpr double kMaxWorkGroupSize = 1 << 20;

/// Throws model::ModelError unless `dsizeBytes` is a finite number in [0, kMaxTransferBytes] and
/// `wgsize` a whole number in [1, kMaxWorkGroupSize] (NaN, infinities, 1e300 and 1.5 are refused).
void checkLaunchSizes(double dsizeBytes, double wgsize);

/// Predicts the device for OpenCL kernels with a device-mapping model file, in this process. The
/// normalized, encoded kernel is cached by source hash, so repeated launches of a kernel only run
/// the network (model::InferenceModel: no LibTorch, no BLAS). Not thread-safe (its cache): one
/// Predictor per thread. Errors are the modules' own exceptions (rewriter::RewriteError,
/// model::ModelError, tokenizer::VocabError).
class Predictor : public DeviceModel {
 public:
  /// Loads and validates `modelPath` (must be a devmap model).
  explicit Predictor(const std::string& modelPath);
  ~Predictor() override;
  Predictor(Predictor&&) noexcept;
  Predictor& operator=(Predictor&&) noexcept;

  /// Normalizes `source` (named `fileName` in errors, its folder the base of relative includes)
  /// with the host's -D/-I `options`, extracts `kernel` (empty = the only kernel), and predicts
  /// for a launch moving `dsizeBytes` bytes with work-group size `wgsize`.
  /// Fills the model's part of the Decision (no device: there are no candidates here).
  Decision predict(const std::string& source, const std::string& fileName,
                   const std::string& kernel, double dsizeBytes, double wgsize,
                   const data::SourceOptions& options = {});

  /// predict() of every kernel the file defines, in source order, from one normalization of it
  /// (each cached as predict() caches it). A file without a kernel is a RewriteError.
  std::vector<Decision> predictEach(const std::string& source, const std::string& fileName,
                                    double dsizeBytes, double wgsize,
                                    const data::SourceOptions& options = {});

  /// DeviceModel: predict() of a launch source (no file name; relative -I folders from the
  /// current folder) with the -D/-I of `buildOptions`.
  Decision predictDevice(const std::string& source, const std::string& kernel,
                         uint64_t transferBytes, size_t wgsize,
                         const std::string& buildOptions) override;

  /// DeviceModel: the hash of the encoded kernel (the encoding is cached for predictDevice).
  uint64_t normalizedHash(const std::string& source, const std::string& kernel,
                          const std::string& buildOptions) override;

  std::string modelPath() const override;
  /// How the model answers: the number of networks whose mean probability predict() reports
  /// (an ensemble over seeds when above 1), and whether they read boosted-tree heads.
  int networks() const;
  bool boostedHeads() const;
  /// The devices a model trained on measured data decides between (CL_DEVICE_NAMEs, in label
  /// order); empty for a CPU/GPU model.
  std::vector<std::string> modelDevices() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The thread-coarsening factor chosen for one kernel.
struct FactorPrediction {
  std::string kernel;      ///< the kernel's name in the source
  std::string method;      ///< the predictor that answered: deeptune or fixed-factor
  int factor = 1;          ///< the most probable factor
  double probability = 0;  ///< its probability
  std::vector<std::pair<int, double>> probabilities;  ///< every factor's, in the model's order
  size_t skippedCharacters = 0;
  size_t tokens = 0;
  std::vector<std::string> undeclared;
};

/// Predicts the thread-coarsening factor of OpenCL kernels (source alone) with a coarsening model
/// file; cached and thread-compatible as Predictor.
class CoarseningPredictor {
 public:
  /// Loads and validates `modelPath` (must be a coarsening model).
  explicit CoarseningPredictor(const std::string& modelPath);
  ~CoarseningPredictor();
  CoarseningPredictor(CoarseningPredictor&&) noexcept;
  CoarseningPredictor& operator=(CoarseningPredictor&&) noexcept;

  /// Normalizes `source`, extracts `kernel` (empty = the only kernel) and predicts its factor.
  FactorPrediction predict(const std::string& source, const std::string& fileName,
                           const std::string& kernel, const data::SourceOptions& options = {});

  /// predict() of every kernel the file defines, in source order (as Predictor::predictEach).
  std::vector<FactorPrediction> predictEach(const std::string& source, const std::string& fileName,
                                            const data::SourceOptions& options = {});

  const std::string& modelPath() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The bundled model for `platform` ("amd" or "nvidia", any case: the default predictor;
/// "amd-deeptune" or "nvidia-deeptune": the DeepTune LSTM models): models/devmap-PLATFORM.model
/// found in $DEEPTUNE_MODELS, beside the installed binary (../share/deeptune/models), in the build
/// tree's source folder, or the source folder this build came from. Throws model::ModelError if
/// absent or if `platform` is neither.
std::string findBundledModel(const std::string& platform);

/// A device-mapping model named on a command line: `argument` itself when it is a file, the
/// bundled model when it names a platform (amd, nvidia, any case; findBundledModel), the bundled
/// pretrained language model models/opencl-lm.model for "opencl-lm" (for --from), else "".
std::string findDevmapModel(const std::string& argument);

/// The bundled coarsening model of one of the paper's GPUs (Cypress, Tahiti, Fermi, Kepler; any
/// case; with "-deeptune", e.g. tahiti-deeptune, the DeepTune LSTM model):
/// models/coarsening-GPU.model, looked up as findBundledModel does.
std::string findBundledCoarseningModel(const std::string& gpu);

}  // namespace deeptune::api
