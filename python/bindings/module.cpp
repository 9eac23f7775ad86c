// The compiled half of the `deeptune` Python package (deeptune/_deeptune): every binding.
#include "python/bindings/bindings.hpp"
#include "python/bindings/fork_guard.hpp"

PYBIND11_MODULE(_deeptune, module) {
  module.doc() =
      "DeepTune's C++ library: OpenCL kernels normalized, tokenized and mapped to the CPU or the "
      "GPU, or to a thread-coarsening factor. Import the `deeptune` package, not this module.";
  deeptune::python::bindErrors(module);
  deeptune::python::bindSources(module);
  deeptune::python::bindPredictors(module);
  deeptune::python::bindAdvisor(module);
  deeptune::python::bindForkGuard(module);
}
