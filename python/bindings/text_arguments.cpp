// What the bindings take from Python as kernel text, checked before use.
#include "python/bindings/bindings.hpp"

namespace deeptune::python {

std::string sourceBytes(py::handle source, const char* what) {
  if (PyBytes_Check(source.ptr())) {
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(source.ptr(), &data, &size) != 0) throw py::error_already_set();
    return std::string(data, static_cast<size_t>(size));
  }
  if (PyUnicode_Check(source.ptr())) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(source.ptr(), &size);
    if (data == nullptr) {
      PyErr_Clear();
      raiseSourceError(std::string(what) +
                       ": not text (a str that is not valid Unicode: " + "a lone surrogate)");
    }
    return std::string(data, static_cast<size_t>(size));
  }
  throw py::type_error(std::string(what) + ": expected str or bytes, got " +
                       std::string(py::str(py::type::handle_of(source).attr("__name__"))));
}

}  // namespace deeptune::python
