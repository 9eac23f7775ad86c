// deeptune.Decision: a device decision's fields, its dict as `predict --json` prints it, repr.
#include <pybind11/stl.h>

#include "python/bindings/decision_types.hpp"

namespace deeptune::python {
namespace {

py::object noneIfEmpty(const std::string& text) {
  return text.empty() ? py::object(py::none()) : py::object(py::str(text));
}

/// The distance to the model's nearest training program, None where the model keeps none.
py::object nearestDistance(const DeviceDecision& d) {
  return d.decision.nearestDistance >= 0 ? py::object(py::float_(d.decision.nearestDistance))
                                         : py::object(py::none());
}

/// The CLI's JSON object of a Predictor decision (api/prediction_report.cpp), as a dict; an
/// advisor's decision adds what the advisor knows (cached, fallback, the candidate chosen).
py::dict toDict(const DeviceDecision& d) {
  py::dict result;
  result["file"] = d.file;
  result["kernel"] = d.decision.kernel;
  result["model"] = d.model;
  result["tokens"] = d.decision.tokens;
  result["skipped_characters"] = d.decision.skippedCharacters;
  result["undeclared"] = d.decision.undeclared;
  result["device"] = d.decision.deviceType;
  if (!d.decision.modelDevice.empty()) result["device_name"] = d.decision.modelDevice;
  result["probability"] = d.decision.probability;
  result["unknown_share"] = d.decision.unknownShare;
  result["nearest_distance"] = nearestDistance(d);
  result["method"] = d.decision.method;
  if (!d.fromAdvisor) {
    result["networks"] = d.networks;
    if (!d.head.empty()) result["head"] = d.head;
  }
  result["dsize"] = d.dsize;
  result["wgsize"] = d.wgsize;
  if (d.fromAdvisor) {
    result["device_name"] = d.decision.deviceName;
    result["cached"] = d.decision.cached;
    result["fallback"] = d.decision.fallback;
    result["deferred"] = d.decision.deferred;
    result["reason"] = d.decision.reason;
    result["note"] = d.decision.note;
  }
  return result;
}

}  // namespace

void bindDecision(py::module_& module) {
  py::class_<DeviceDecision>(
      module, "Decision",
      "Where a kernel launch should run, and how that was decided (read-only). `device` is "
      "'CPU' or 'GPU'; `probability` the model's probability of it (0 for a fallback). From an "
      "Advisor: `cl_device` (the chosen candidate's cl_device_id as an int), `device_name` (its "
      "CL_DEVICE_NAME), `cached`, `fallback` and `reason`, `note`. to_dict() gives the fields "
      "`deeptune predict --json` prints.")
      .def_property_readonly("kernel", [](const DeviceDecision& d) { return d.decision.kernel; })
      .def_property_readonly("device",
                             [](const DeviceDecision& d) { return d.decision.deviceType; })
      .def_property_readonly(
          "device_name",
          [](const DeviceDecision& d) {
            return noneIfEmpty(d.fromAdvisor ? d.decision.deviceName : d.decision.modelDevice);
          })
      .def_property_readonly(
          "model_device",
          [](const DeviceDecision& d) { return noneIfEmpty(d.decision.modelDevice); },
          "For a model trained on measured devices: the CL_DEVICE_NAME it chose; else None.")
      .def_property_readonly("probability",
                             [](const DeviceDecision& d) { return d.decision.probability; })
      .def_property_readonly("method", [](const DeviceDecision& d) { return d.decision.method; })
      .def_property_readonly(
          "unknown_share", [](const DeviceDecision& d) { return d.decision.unknownShare; },
          "The share of the kernel's normalized characters outside the model's vocabulary.")
      .def_property_readonly(
          "nearest_distance", &nearestDistance,
          "How far the kernel is from the nearest program the model was trained on: 0 (the "
          "token mix of one of them) to 1 (no token in common); None when the model file does "
          "not keep its programs.")
      .def_readonly("networks", &DeviceDecision::networks)
      .def_property_readonly("head", [](const DeviceDecision& d) { return noneIfEmpty(d.head); })
      .def_readonly("model", &DeviceDecision::model)
      .def_readonly("file", &DeviceDecision::file)
      .def_readonly("dsize", &DeviceDecision::dsize)
      .def_readonly("wgsize", &DeviceDecision::wgsize)
      .def_property_readonly("tokens", [](const DeviceDecision& d) { return d.decision.tokens; })
      .def_property_readonly("skipped_characters",
                             [](const DeviceDecision& d) { return d.decision.skippedCharacters; })
      .def_property_readonly("undeclared",
                             [](const DeviceDecision& d) { return d.decision.undeclared; })
      .def_property_readonly("cl_device",
                             [](const DeviceDecision& d) -> py::object {
                               if (d.decision.device == nullptr) return py::none();
                               return py::int_(reinterpret_cast<uintptr_t>(d.decision.device));
                             })
      .def_property_readonly("cached", [](const DeviceDecision& d) { return d.decision.cached; })
      .def_property_readonly("fallback",
                             [](const DeviceDecision& d) { return d.decision.fallback; })
      .def_property_readonly("deferred",
                             [](const DeviceDecision& d) { return d.decision.deferred; })
      .def_property_readonly("reason", [](const DeviceDecision& d) { return d.decision.reason; })
      .def_property_readonly("note", [](const DeviceDecision& d) { return d.decision.note; })
      .def_property_readonly("normalized_hash",
                             [](const DeviceDecision& d) { return d.decision.normalizedHash; })
      .def("to_dict", &toDict)
      .def("__repr__", [](const DeviceDecision& d) {
        std::string text = "Decision(kernel=" + std::string(py::repr(py::str(d.decision.kernel))) +
                           ", device='" + d.decision.deviceType + "'";
        const std::string& name = d.fromAdvisor ? d.decision.deviceName : d.decision.modelDevice;
        if (!name.empty()) text += ", device_name=" + std::string(py::repr(py::str(name)));
        char probability[32];
        std::snprintf(probability, sizeof probability, "%.4f", d.decision.probability);
        text +=
            ", probability=" + std::string(probability) + ", method='" + d.decision.method + "'";
        if (d.decision.fallback) text += ", fallback=True";
        if (d.decision.cached) text += ", cached=True";
        return text + ")";
      });
}

}  // namespace deeptune::python
