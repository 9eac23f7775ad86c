// deeptune.Predictor and deeptune.CoarseningPredictor: one launch or a batch, GIL released.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <mutex>

#include "api/predictor.hpp"
#include "data/source_options.hpp"
#include "model/model_error.hpp"
#include "python/bindings/batch_spread.hpp"
#include "python/bindings/decision_types.hpp"
#include "python/bindings/fork_guard.hpp"
#include "rewriter/rewrite_error.hpp"
#include "tokenizer/vocab_error.hpp"

namespace deeptune::python {
namespace {

using namespace pybind11::literals;

/// A model named by a path (str or os.PathLike) or a bundled name, resolved by `findBundled`.
std::string modelFile(py::handle model, const char* kinds,
                      std::string (*findBundled)(const std::string&)) {
  const std::string name = py::str(py::module_::import("os").attr("fspath")(model));
  std::error_code ec;
  if (std::filesystem::exists(name, ec)) return name;
  if (name.find('/') != std::string::npos || name.find(".model") != std::string::npos) {
    throw model::ModelError(name + ": no such model file");
  }
  try {
    return findBundled(name);
  } catch (const model::ModelError&) {
    throw model::ModelError("model '" + name + "': not a file, nor a bundled model (" + kinds +
                            ")");
  }
}

/// `work(text, options)` on one source: the source and the host options converted and checked
/// with the GIL, then the work done without it, holding the predictor's `lock` (calls take turns).
template <typename Work>
auto onSource(ForkGuardedMutex& lock, py::handle source, const std::vector<std::string>& defines,
              const std::vector<std::string>& includeDirs, Work work) {
  const std::string text = sourceBytes(source, "source");
  const data::SourceOptions options = data::makeSourceOptions(defines, includeDirs);
  py::gil_scoped_release release;
  std::lock_guard<ForkGuardedMutex> held(lock);
  return work(text, options);
}

/// A batch's sources (str or bytes) and kernel names (None: each source's only kernel), checked
/// and converted before any work.
void batchInputs(const py::sequence& sources, const py::object& kernels,
                 std::vector<std::string>& texts, std::vector<std::string>& kernelNames) {
  const size_t count = py::len(sources);
  texts.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    texts.push_back(sourceBytes(sources[i], ("sources[" + std::to_string(i) + "]").c_str()));
  }
  kernelNames.assign(count, "");
  if (kernels.is_none()) return;
  if (py::len(kernels) != count) throw py::value_error("predict_batch: one kernel per source");
  for (size_t i = 0; i < count; ++i) kernelNames[i] = kernels[py::int_(i)].cast<std::string>();
}

/// A batch is spread over at most this many predictors (each a model and a rewriter worker).
constexpr size_t kMaxBatchPredictors = 4;

constexpr const char* kDevmapModels = "amd, nvidia, amd-deeptune, nvidia-deeptune";
constexpr const char* kCoarseningModels = "cypress, tahiti, fermi, kepler, or GPU-deeptune";

/// `work()` for launch `index` of a batch; an error it raises names the launch at its end.
template <typename Work>
auto namingLaunch(size_t index, Work work) -> decltype(work()) {
  const std::string launch = " (launch " + std::to_string(index) + ")";
  try {
    return work();
  } catch (const rewriter::RewriteError& e) {
    if (!e.aboutInput()) throw;
    throw rewriter::RewriteError(e.file(), e.line(), e.column(), e.message() + launch);
  } catch (const tokenizer::VocabError& e) {
    throw tokenizer::VocabError(e.what() + launch);
  } catch (const model::ModelError& e) {
    throw model::ModelError(e.what() + launch);
  }
}

/// One api::Predictor behind a mutex: Python threads may share it (each call releases the GIL).
class DevicePredictor {
 public:
  explicit DevicePredictor(py::handle model)
      : path_(modelFile(model, kDevmapModels, api::findBundledModel)), predictor_(load(path_)) {}

  DeviceDecision predict(py::handle source, double dsize, double wgsize, const std::string& kernel,
                         const std::vector<std::string>& defines,
                         const std::vector<std::string>& includeDirs, const std::string& fileName) {
    return onSource(mutex_, source, defines, includeDirs, [&](auto& text, auto& options) {
      return decide(predictor_, text, dsize, wgsize, kernel, options, fileName);
    });
  }

  std::vector<DeviceDecision> predictEach(py::handle source, double dsize, double wgsize,
                                          const std::vector<std::string>& defines,
                                          const std::vector<std::string>& includeDirs,
                                          const std::string& fileName) {
    return onSource(mutex_, source, defines, includeDirs, [&](auto& text, auto& options) {
      std::vector<DeviceDecision> result;
      for (api::Decision& one : predictor_.predictEach(text, fileName, dsize, wgsize, options)) {
        result.push_back(described(std::move(one), fileName, dsize, wgsize));
      }
      return result;
    });
  }

  py::dict predictBatch(py::sequence sources, py::array_t<double, py::array::forcecast> dsizes,
                        py::array_t<double, py::array::forcecast> wgsizes, py::object kernels,
                        const std::vector<std::string>& defines,
                        const std::vector<std::string>& includeDirs, const std::string& fileName) {
    const size_t count = py::len(sources);
    if (dsizes.ndim() != 1 || wgsizes.ndim() != 1 || static_cast<size_t>(dsizes.size()) != count ||
        static_cast<size_t>(wgsizes.size()) != count) {
      throw py::value_error(
          "predict_batch: sources, dsizes and wgsizes must be 1-D and of one "
          "length (" +
          std::to_string(count) + " sources)");
    }
    std::vector<std::string> texts, kernelNames;
    batchInputs(sources, kernels, texts, kernelNames);
    const data::SourceOptions options = data::makeSourceOptions(defines, includeDirs);
    py::array_t<bool> gpu(count);
    py::array_t<double> probability(count);
    std::vector<std::string> names(count), methods(count), deviceNames(count);
    {
      auto d = dsizes.unchecked<1>();
      auto w = wgsizes.unchecked<1>();
      auto g = gpu.mutable_unchecked<1>();
      auto p = probability.mutable_unchecked<1>();
      py::gil_scoped_release release;
      std::lock_guard<ForkGuardedMutex> lock(mutex_);
      const BatchSpread spread = spreadByKernel(texts, kernelNames, kMaxBatchPredictors);
      if (helpers_.size() < spread.slots - 1) helpers_.resize(spread.slots - 1);
      runSpread(spread, [&](size_t slot, size_t i) {
        const auto index = static_cast<py::ssize_t>(i);
        DeviceDecision one = namingLaunch(i, [&] {
          return decide(predictorOf(slot), texts[i], d(index), w(index), kernelNames[i], options,
                        fileName);
        });
        g(index) = one.decision.deviceType == "GPU";
        p(index) = one.decision.probability;
        names[i] = std::move(one.decision.kernel);
        methods[i] = std::move(one.decision.method);
        deviceNames[i] = std::move(one.decision.modelDevice);
      });
    }
    py::module_ numpy = py::module_::import("numpy");
    py::dict result;
    result["gpu"] = gpu;
    result["device"] = numpy.attr("where")(gpu, "GPU", "CPU").attr("astype")("U3");
    result["probability"] = probability;
    result["kernel"] = numpy.attr("array")(py::cast(names), "dtype"_a = "str");
    result["method"] = numpy.attr("array")(py::cast(methods), "dtype"_a = "str");
    if (!predictor_.modelDevices().empty()) {
      result["device_name"] = numpy.attr("array")(py::cast(deviceNames), "dtype"_a = "str");
    }
    return result;
  }

  const std::string& model() const { return path_; }
  int networks() const { return predictor_.networks(); }
  bool boostedHeads() const { return predictor_.boostedHeads(); }
  std::vector<std::string> modelDevices() const { return predictor_.modelDevices(); }

 private:
  static api::Predictor load(const std::string& path) {
    py::gil_scoped_release release;
    return api::Predictor(path);
  }

  /// The predictor of batch slot `slot`: this one for slot 0, else a helper loaded on first use
  /// (on the slot's own thread, so helpers load in parallel).
  api::Predictor& predictorOf(size_t slot) {
    if (slot == 0) return predictor_;
    std::unique_ptr<api::Predictor>& helper = helpers_[slot - 1];
    if (!helper) helper = std::make_unique<api::Predictor>(path_);
    return *helper;
  }

  DeviceDecision decide(api::Predictor& predictor, const std::string& text, double dsize,
                        double wgsize, const std::string& kernel,
                        const data::SourceOptions& options, const std::string& fileName) {
    return described(predictor.predict(text, fileName, kernel, dsize, wgsize, options), fileName,
                     dsize, wgsize);
  }

  /// `decision` with what `predict --json` prints beside it.
  DeviceDecision described(api::Decision decision, const std::string& fileName, double dsize,
                           double wgsize) const {
    DeviceDecision result;
    result.decision = std::move(decision);
    result.file = fileName;
    result.model = path_;
    result.networks = predictor_.networks();
    if (result.decision.method == "deeptune") {
      result.head = predictor_.boostedHeads() ? "boosted-trees" : "network";
    }
    result.dsize = dsize;
    result.wgsize = wgsize;
    return result;
  }

  std::string path_;
  api::Predictor predictor_;
  /// More predictors of the same model for large batches (batch_spread.hpp), made when needed.
  std::vector<std::unique_ptr<api::Predictor>> helpers_;
  ForkGuardedMutex mutex_;  ///< one call at a time (the predictors' caches are not thread-safe)
};

/// deeptune.FactorDecision: the coarsening factor chosen for one kernel.
struct FactorDecision {
  api::FactorPrediction prediction;
  std::string file, model;
};

class FactorPredictor {
 public:
  explicit FactorPredictor(py::handle model)
      : path_(modelFile(model, kCoarseningModels, api::findBundledCoarseningModel)),
        predictor_(load(path_)) {}

  FactorDecision predict(py::handle source, const std::string& kernel,
                         const std::vector<std::string>& defines,
                         const std::vector<std::string>& includeDirs, const std::string& fileName) {
    return onSource(mutex_, source, defines, includeDirs, [&](auto& text, auto& options) {
      return FactorDecision{predictor_.predict(text, fileName, kernel, options), fileName, path_};
    });
  }

  std::vector<FactorDecision> predictEach(py::handle source,
                                          const std::vector<std::string>& defines,
                                          const std::vector<std::string>& includeDirs,
                                          const std::string& fileName) {
    return onSource(mutex_, source, defines, includeDirs, [&](auto& text, auto& options) {
      std::vector<FactorDecision> result;
      for (api::FactorPrediction& one : predictor_.predictEach(text, fileName, options)) {
        result.push_back({std::move(one), fileName, path_});
      }
      return result;
    });
  }

  py::dict predictBatch(py::sequence sources, py::object kernels, const std::string& fileName) {
    const size_t count = py::len(sources);
    std::vector<std::string> texts, kernelNames;
    batchInputs(sources, kernels, texts, kernelNames);
    py::array_t<int> factor(count);
    py::array_t<double> probability(count);
    std::vector<std::string> names(count);
    {
      auto f = factor.mutable_unchecked<1>();
      auto p = probability.mutable_unchecked<1>();
      py::gil_scoped_release release;
      std::lock_guard<ForkGuardedMutex> lock(mutex_);
      for (size_t i = 0; i < count; ++i) {
        api::FactorPrediction one =
            namingLaunch(i, [&] { return predictor_.predict(texts[i], fileName, kernelNames[i]); });
        f(static_cast<py::ssize_t>(i)) = one.factor;
        p(static_cast<py::ssize_t>(i)) = one.probability;
        names[i] = std::move(one.kernel);
      }
    }
    py::dict result;
    result["factor"] = factor;
    result["probability"] = probability;
    result["kernel"] =
        py::module_::import("numpy").attr("array")(py::cast(names), "dtype"_a = "str");
    return result;
  }

  const std::string& model() const { return path_; }

 private:
  static api::CoarseningPredictor load(const std::string& path) {
    py::gil_scoped_release release;
    return api::CoarseningPredictor(path);
  }

  std::string path_;
  api::CoarseningPredictor predictor_;
  ForkGuardedMutex mutex_;
};

}  // namespace

void bindPredictors(py::module_& module) {
  bindDecision(module);
  const std::vector<std::string> none;

  py::class_<DevicePredictor>(
      module, "Predictor",
      "Predictor(model='amd')\n\n"
      "Predicts whether an OpenCL kernel launch runs faster on the CPU or the GPU, in this "
      "process, as `deeptune predict` does. `model` is a bundled model's name ('amd', "
      "'nvidia': the default predictors; 'amd-deeptune', 'nvidia-deeptune': the DeepTune "
      "LSTMs) or a model file (str or path). Kernels are normalized and encoded once per "
      "source (cached), so repeated launches only run the model. Threads may share one "
      "Predictor: calls release the GIL and take turns on it. Raises deeptune.ModelError when "
      "the model cannot be found or is not a device-mapping model.")
      .def(py::init<py::handle>(), "model"_a = "amd")
      .def("predict", &DevicePredictor::predict, "source"_a, py::kw_only(), "dsize"_a, "wgsize"_a,
           "kernel"_a = "", "defines"_a = none, "include_dirs"_a = none, "file_name"_a = "<source>",
           "predict(source, *, dsize, wgsize, kernel='', defines=(), include_dirs=(), "
           "file_name='<source>') -> Decision\n\n"
           "The device for one launch of `kernel` (empty: the source's only kernel) in "
           "`source` (str or bytes), moving `dsize` bytes with work-group size `wgsize`. "
           "`defines` ('N' or 'N=8') and `include_dirs` are the host's -D and -I. Raises "
           "deeptune.SourceError for source the rewriter cannot read, deeptune.ModelError for "
           "sizes out of range.")
      .def("predict_each", &DevicePredictor::predictEach, "source"_a, py::kw_only(), "dsize"_a,
           "wgsize"_a, "defines"_a = none, "include_dirs"_a = none, "file_name"_a = "<source>",
           "predict_each(source, *, dsize, wgsize, ...) -> list[Decision]\n\n"
           "predict() for every kernel the source defines, in source order (as `deeptune "
           "predict` answers for a file), from one normalization of the file.")
      .def("predict_batch", &DevicePredictor::predictBatch, "sources"_a, "dsizes"_a, "wgsizes"_a,
           py::kw_only(), "kernels"_a = py::none(), "defines"_a = none, "include_dirs"_a = none,
           "file_name"_a = "<source>",
           "predict_batch(sources, dsizes, wgsizes, *, kernels=None, ...) -> dict of arrays\n\n"
           "The decisions of many launches (sources[i] launched with dsizes[i], wgsizes[i]; "
           "kernels[i] names its kernel), in one call without the GIL: a dict of numpy arrays "
           "'device' ('CPU'/'GPU'), 'gpu' (bool), 'probability', 'kernel', 'method' (and "
           "'device_name' for a model of named devices). Equal to predict() launch by launch; "
           "the first launch that fails raises, naming its index.")
      .def_property_readonly("model", &DevicePredictor::model, "The model file (resolved).")
      .def_property_readonly("networks", &DevicePredictor::networks)
      .def_property_readonly("boosted_heads", &DevicePredictor::boostedHeads)
      .def_property_readonly("model_devices", &DevicePredictor::modelDevices)
      .def("__repr__", [](const DevicePredictor& p) {
        return "<deeptune.Predictor " + std::string(py::repr(py::str(p.model()))) + ">";
      });

  py::class_<FactorDecision>(module, "FactorDecision",
                             "The thread-coarsening factor chosen for a kernel (read-only).")
      .def_property_readonly("kernel", [](const FactorDecision& d) { return d.prediction.kernel; })
      .def_property_readonly("factor", [](const FactorDecision& d) { return d.prediction.factor; })
      .def_property_readonly("probability",
                             [](const FactorDecision& d) { return d.prediction.probability; })
      .def_property_readonly(
          "probabilities",
          [](const FactorDecision& d) {
            py::dict result;
            for (const auto& [factor, p] : d.prediction.probabilities) result[py::int_(factor)] = p;
            return result;
          },
          "Every factor's probability, {factor: probability}.")
      .def_property_readonly("method", [](const FactorDecision& d) { return d.prediction.method; })
      .def_property_readonly("tokens", [](const FactorDecision& d) { return d.prediction.tokens; })
      .def_property_readonly("skipped_characters",
                             [](const FactorDecision& d) { return d.prediction.skippedCharacters; })
      .def_property_readonly("undeclared",
                             [](const FactorDecision& d) { return d.prediction.undeclared; })
      .def_readonly("file", &FactorDecision::file)
      .def_readonly("model", &FactorDecision::model)
      .def("to_dict",
           [](const FactorDecision& d) {
             py::list probabilities;
             for (const auto& [factor, p] : d.prediction.probabilities) {
               probabilities.append(py::dict("factor"_a = factor, "probability"_a = p));
             }
             return py::dict("file"_a = d.file, "kernel"_a = d.prediction.kernel,
                             "model"_a = d.model, "tokens"_a = d.prediction.tokens,
                             "skipped_characters"_a = d.prediction.skippedCharacters,
                             "undeclared"_a = d.prediction.undeclared,
                             "factor"_a = d.prediction.factor, "method"_a = d.prediction.method,
                             "probability"_a = d.prediction.probability,
                             "probabilities"_a = probabilities);
           })
      .def("__repr__", [](const FactorDecision& d) {
        char probability[32];
        std::snprintf(probability, sizeof probability, "%.4f", d.prediction.probability);
        return "FactorDecision(kernel=" + std::string(py::repr(py::str(d.prediction.kernel))) +
               ", factor=" + std::to_string(d.prediction.factor) + ", probability=" + probability +
               ", method='" + d.prediction.method + "')";
      });

  py::class_<FactorPredictor>(
      module, "CoarseningPredictor",
      "CoarseningPredictor(model='tahiti')\n\n"
      "Predicts the thread-coarsening factor of an OpenCL kernel from its source, as `deeptune "
      "predict --task coarsening` does. `model`: a bundled GPU ('cypress', 'tahiti', 'fermi', "
      "'kepler'; with '-deeptune' the LSTM) or a model file. Shared by threads as Predictor.")
      .def(py::init<py::handle>(), "model"_a = "tahiti")
      .def("predict", &FactorPredictor::predict, "source"_a, py::kw_only(), "kernel"_a = "",
           "defines"_a = none, "include_dirs"_a = none, "file_name"_a = "<source>",
           "predict(source, *, kernel='', defines=(), include_dirs=(), file_name='<source>') "
           "-> FactorDecision")
      .def("predict_each", &FactorPredictor::predictEach, "source"_a, py::kw_only(),
           "defines"_a = none, "include_dirs"_a = none, "file_name"_a = "<source>",
           "predict_each(source, *, ...) -> list[FactorDecision]: every kernel, in source order")
      .def("predict_batch", &FactorPredictor::predictBatch, "sources"_a, py::kw_only(),
           "kernels"_a = py::none(), "file_name"_a = "<source>",
           "predict_batch(sources, *, kernels=None) -> dict of arrays 'factor', "
           "'probability', 'kernel'")
      .def_property_readonly("model", &FactorPredictor::model)
      .def("__repr__", [](const FactorPredictor& p) {
        return "<deeptune.CoarseningPredictor " + std::string(py::repr(py::str(p.model()))) + ">";
      });
}

}  // namespace deeptune::python
