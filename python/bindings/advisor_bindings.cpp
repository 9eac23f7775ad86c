// deeptune.Advisor: the in-process advisor (legality, model, fallback, cache) for Python hosts.
#include <pybind11/stl.h>

#include <climits>
#include <mutex>
#include <shared_mutex>
#include <unordered_set>

#include "api/advisor.hpp"
#include "python/bindings/decision_types.hpp"
#include "python/bindings/fork_guard.hpp"
#include "runtime/devices.hpp"

namespace deeptune::python {
namespace {

using namespace pybind11::literals;

/// A whole number from Python in [minimum, SIZE_MAX], or ApiError naming `what`.
uint64_t wholeNumber(py::handle value, const std::string& what, uint64_t minimum) {
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) {
    throw api::ApiError(what + ": expected a whole number (int), got " +
                        std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
  int overflow = 0;
  const long long number = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  uint64_t result = 0;
  if (overflow > 0) {
    result = PyLong_AsUnsignedLongLong(value.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      throw api::ApiError(what + ": " + std::string(py::str(value)) + " is too large");
    }
  } else if (overflow < 0 || number < 0 || static_cast<uint64_t>(number) < minimum) {
    throw api::ApiError(what + ": " + std::string(py::str(value)) + " is below " +
                        std::to_string(minimum));
  } else {
    result = static_cast<uint64_t>(number);
  }
  if (result > SIZE_MAX)
    throw api::ApiError(what + ": " + std::to_string(result) + " is too large");
  return result;
}

std::vector<size_t> sizes(py::handle values, const std::string& what) {
  if (PyLong_Check(values.ptr())) return {static_cast<size_t>(wholeNumber(values, what, 1))};
  if (!PySequence_Check(values.ptr()) || PyUnicode_Check(values.ptr())) {
    throw api::ApiError(what + ": expected an int or a sequence of 1 to 3 ints");
  }
  std::vector<size_t> result;
  const py::sequence sequence = py::reinterpret_borrow<py::sequence>(values);
  if (py::len(sequence) > 3) throw api::ApiError(what + ": more than 3 dimensions");
  for (size_t i = 0; i < py::len(sequence); ++i) {
    result.push_back(
        static_cast<size_t>(wholeNumber(sequence[i], what + "[" + std::to_string(i) + "]", 1)));
  }
  return result;
}

/// The cl_device_ids of every OpenCL platform's devices: a candidate must be one of them (a
/// made-up handle would crash the OpenCL loader that dereferences it).
class KnownDevices {
 public:
  bool contains(cl_device_id device) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ids_.count(device) != 0) return true;
    if (listed_ < 2) {  // devices may appear after the first look (a platform loaded late)
      ++listed_;
      for (const runtime::DeviceInfo& info : runtime::listDevices()) ids_.insert(info.id);
    }
    return ids_.count(device) != 0;
  }

 private:
  std::mutex mutex_;
  std::unordered_set<cl_device_id> ids_;
  int listed_ = 0;
};

KnownDevices& knownDevices() {
  static KnownDevices* devices = new KnownDevices;  // never destroyed: used until exit
  return *devices;
}

/// A candidate: an int (a cl_device_id's address) or an object with `int_ptr` (pyopencl.Device).
cl_device_id candidate(py::handle device, size_t index) {
  const std::string what = "candidates[" + std::to_string(index) + "]";
  py::object handle = py::reinterpret_borrow<py::object>(device);
  if (!PyLong_Check(device.ptr())) {
    if (PyObject* address = PyObject_GetAttrString(device.ptr(), "int_ptr")) {
      handle = py::reinterpret_steal<py::object>(address);
    } else {
      PyErr_Clear();  // not a device object: wholeNumber() says what it got
    }
  }
  const auto address = wholeNumber(handle, what, 1);
  const auto id = reinterpret_cast<cl_device_id>(static_cast<uintptr_t>(address));
  if (!knownDevices().contains(id)) {
    throw api::ApiError(what + ": not a device of any OpenCL platform of this process");
  }
  return id;
}

class PythonAdvisor {
 public:
  explicit PythonAdvisor(api::AdvisorOptions options)
      : advisor_(start(std::move(options))), modelPath_(advisor_.modelPath()) {}

  DeviceDecision advise(py::handle source, py::sequence candidates, py::handle globalSize,
                        py::handle localSize, py::handle transferBytes, const std::string& kernel,
                        const std::string& buildOptions) {
    api::LaunchQuery query;
    query.source = sourceBytes(source, "source");
    query.kernel = kernel;
    query.buildOptions = buildOptions;
    const size_t count = py::len(candidates);
    query.candidates.reserve(count);
    for (size_t i = 0; i < count; ++i) query.candidates.push_back(candidate(candidates[i], i));
    query.range.global = sizes(globalSize, "global_size");
    if (!localSize.is_none()) query.range.local = sizes(localSize, "local_size");
    query.transferBytes = wholeNumber(transferBytes, "transfer_bytes", 0);
    DeviceDecision result;
    {
      py::gil_scoped_release release;
      std::shared_lock<ForkGuardedMutex> lock(forkGuard_);
      result.decision = advisor_.advise(query);
    }
    result.fromAdvisor = true;
    result.file = "launch source";
    result.model = modelPath_;
    result.dsize = static_cast<double>(result.decision.transferBytes);
    result.wgsize = static_cast<double>(result.decision.wgsize);
    return result;
  }

  api::Advisor& advisor() { return advisor_; }

 private:
  static api::Advisor start(api::AdvisorOptions options) {
    py::gil_scoped_release release;
    return api::Advisor(std::move(options));
  }
  api::Advisor advisor_;
  std::string modelPath_;       ///< the advisor's model file, fixed once it has loaded
  ForkGuardedMutex forkGuard_;  ///< os.fork() waits for the advise() calls under way
};

}  // namespace

void bindAdvisor(py::module_& module) {
  py::class_<PythonAdvisor>(
      module, "Advisor",
      "Advisor(model=None, *, platform='amd', fallback_gpu_bytes=64 MiB, decision_budget_ms=0, "
      "min_probability=0, out_of_process=False)\n\n"
      "Decides the device of an OpenCL application's kernel launches, as the C++ "
      "deeptune::api::Advisor does: legality first (a candidate that cannot run the range is "
      "never chosen), then the model, then a fallback by data size when the model or the "
      "rewriter cannot answer, or when its (calibrated) probability is below `min_probability` "
      "(flagged in the decision, not raised). Decisions are cached by the "
      "normalized kernel and the launch sizes; one Advisor may be shared by threads and kept "
      "across os.fork(). `model`: a device-mapping model file; None: the bundled model of "
      "`platform` ('amd', 'nvidia', 'amd-deeptune', 'nvidia-deeptune'). A model that cannot be "
      "loaded is not an error: every decision falls back (see model_problem).")
      .def(py::init([](py::object model, const std::string& platform, uint64_t fallbackGpuBytes,
                       double decisionBudgetMs, double minProbability, bool outOfProcess) {
             api::AdvisorOptions options;
             if (!model.is_none()) {
               options.model = py::str(py::module_::import("os").attr("fspath")(model));
             }
             options.platform = platform;
             options.fallbackGpuBytes = fallbackGpuBytes;
             if (!(decisionBudgetMs >= 0 && decisionBudgetMs <= 3.6e6)) {
               throw api::ApiError("decision_budget_ms: expected 0 to 3600000 ms");
             }
             options.decisionBudgetMs = decisionBudgetMs;
             options.minProbability = minProbability;  // checked by the Advisor
             options.outOfProcess = outOfProcess;
             return std::make_unique<PythonAdvisor>(std::move(options));
           }),
           "model"_a = py::none(), py::kw_only(), "platform"_a = "amd",
           "fallback_gpu_bytes"_a = api::kDefaultFallbackGpuBytes, "decision_budget_ms"_a = 0.0,
           "min_probability"_a = 0.0, "out_of_process"_a = false)
      .def("advise", &PythonAdvisor::advise, "source"_a, "candidates"_a, "global_size"_a,
           "local_size"_a = py::none(), py::kw_only(), "transfer_bytes"_a = 0, "kernel"_a = "",
           "build_options"_a = "",
           "advise(source, candidates, global_size, local_size=None, *, transfer_bytes=0, "
           "kernel='', build_options='') -> Decision\n\n"
           "The device for one launch: `candidates` are the devices the application can use, "
           "in order (pyopencl.Device objects or cl_device_id addresses as ints); "
           "`global_size`/`local_size` an int or 1-3 ints (local None: the driver chooses); "
           "`transfer_bytes` the bytes the launch moves (inputs once, outputs twice); "
           "`build_options` the clBuildProgram options (their -D/-I reach the rewriter). "
           "Raises deeptune.LaunchError for a malformed range, no candidate, a candidate that "
           "is not a device, or none that can run the range.")
      .def_property_readonly(
          "model_problem", [](PythonAdvisor& a) { return a.advisor().modelProblem(); },
          "Why the model is unavailable (every decision falls back), or ''.")
      .def_property_readonly("model", [](PythonAdvisor& a) { return a.advisor().modelPath(); })
      .def_property_readonly(
          "model_calls", [](PythonAdvisor& a) { return a.advisor().modelCalls(); },
          "How many decisions asked the model (not served from the cache).")
      .def(
          "finish_deferred",
          [](PythonAdvisor& a) {
            py::gil_scoped_release release;
            a.advisor().finishDeferred();
          },
          "Waits until the model work that decision_budget_ms deferred has finished.");
}

}  // namespace deeptune::python
