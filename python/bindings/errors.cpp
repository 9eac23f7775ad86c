// deeptune.Error and its subclasses: every module's exception as a Python exception, same text.
#include <exception>
#include <stdexcept>

#include "api/api_error.hpp"
#include "data/data_error.hpp"
#include "model/model_error.hpp"
#include "python/bindings/bindings.hpp"
#include "rewriter/rewrite_error.hpp"
#include "runtime/runtime_error.hpp"
#include "tokenizer/vocab_error.hpp"

namespace deeptune::python {
namespace {

/// The exception classes, created once when the module is imported (owned by the module).
struct ErrorClasses {
  PyObject* error = nullptr;
  PyObject* source = nullptr;
  PyObject* model = nullptr;
  PyObject* data = nullptr;
  PyObject* launch = nullptr;
  PyObject* device = nullptr;
  PyObject* setup = nullptr;
};
ErrorClasses classes;

/// A new exception class deeptune.NAME deriving from `bases` (a class or a tuple of classes).
PyObject* newClass(py::module_& module, const char* name, const char* doc, PyObject* bases) {
  const std::string qualified = std::string("deeptune.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.add_object(name, py::reinterpret_borrow<py::object>(type));
  return type;
}

PyObject* subclass(py::module_& module, const char* name, const char* doc, PyObject* builtin) {
  py::tuple bases = py::make_tuple(py::handle(classes.error), py::handle(builtin));
  return newClass(module, name, doc, bases.ptr());
}

}  // namespace

[[noreturn]] void raiseSourceError(const std::string& message) {
  PyErr_SetString(classes.source, message.c_str());
  throw py::error_already_set();
}

void bindErrors(py::module_& module) {
  classes.error = newClass(module, "Error",
                           "The base of every error deeptune raises; str() is one line naming the "
                           "file and position where there is one, as the CLI prints it.",
                           PyExc_Exception);
  classes.source = subclass(module, "SourceError",
                            "A kernel source the rewriter or the tokenizer cannot read: not "
                            "OpenCL C 1.2, not text, too large or complex, no such kernel.",
                            PyExc_ValueError);
  classes.model = subclass(module, "ModelError",
                           "A model that cannot be found or read, of the wrong task, or launch "
                           "sizes outside the range it answers for.",
                           PyExc_ValueError);
  classes.data = subclass(module, "DataError",
                          "A data file (CSV) or an option value (-D, -I) that is not valid.",
                          PyExc_ValueError);
  classes.launch = subclass(module, "LaunchError",
                            "A launch the advisor cannot decide: a malformed range, no candidate "
                            "device, a candidate that is not a device or cannot run the range.",
                            PyExc_ValueError);
  classes.device = subclass(module, "DeviceError", "An OpenCL call failed.", PyExc_RuntimeError);
  classes.setup = subclass(module, "SetupError",
                           "The library's own set-up failed (not the input's fault): e.g. the "
                           "rewriter's precompiled header could not be built.",
                           PyExc_RuntimeError);

  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const rewriter::RewriteError& e) {
      PyErr_SetString(e.aboutInput() ? classes.source : classes.setup, e.what());
    } catch (const tokenizer::VocabError& e) {
      PyErr_SetString(classes.source, e.what());
    } catch (const model::ModelError& e) {
      PyErr_SetString(classes.model, e.what());
    } catch (const data::DataError& e) {
      PyErr_SetString(classes.data, e.what());
    } catch (const api::ApiError& e) {
      PyErr_SetString(classes.launch, e.what());
    } catch (const runtime::RuntimeError& e) {
      PyErr_SetString(classes.device, e.what());
    }
  });
}

}  // namespace deeptune::python
