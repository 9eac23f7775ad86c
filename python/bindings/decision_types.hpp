// The decision types Python sees: a device decision (Predictor, Advisor) and a factor decision.
#pragma once

#include <string>

#include "deeptune/api/decision.hpp"
#include "python/bindings/bindings.hpp"

namespace deeptune::python {

/// deeptune.Decision: the C++ decision with what `deeptune predict --json` adds beside it.
struct DeviceDecision {
  api::Decision decision;
  std::string file;   ///< the file name the source was given under
  std::string model;  ///< the model file that answered
  int networks = 0;   ///< networks averaged (0 for a predictor without networks)
  std::string head;   ///< "boosted-trees" or "network" for a deeptune model; else empty
  double dsize = 0, wgsize = 0;
  bool fromAdvisor = false;  ///< cl_device, device_name (the candidate's) and cached are set
};

/// Registers deeptune.Decision (before anything that returns one).
void bindDecision(py::module_& module);

}  // namespace deeptune::python
