// The compiled module's parts: each registers its classes and functions on the module.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace deeptune::python {

namespace py = pybind11;

/// deeptune.Error and its subclasses, and the translation of every module's exception to them.
void bindErrors(py::module_& module);
/// rewrite, kernels, tokenize, and the readers of the paper's CSVs.
void bindSources(py::module_& module);
/// Predictor, CoarseningPredictor and their decisions.
void bindPredictors(py::module_& module);
/// Advisor: the in-process advisor with legality, cache and fallback.
void bindAdvisor(py::module_& module);

/// The bytes of a kernel source given as str (UTF-8) or bytes (as they are: the rewriter checks
/// them). Raises deeptune.SourceError for a str that is not encodable (a lone surrogate) and
/// TypeError for anything else. `what` names the argument in the message.
std::string sourceBytes(py::handle source, const char* what);
/// Raises deeptune.SourceError with `message` (the exception is set; throws py::error_already_set).
[[noreturn]] void raiseSourceError(const std::string& message);

}  // namespace deeptune::python
