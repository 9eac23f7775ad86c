// Device legality: can a device run an ND-range, and which candidate a decision lands on.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "deeptune/api/api_error.hpp"

namespace deeptune::api {

/// An ND-range of 1 to 3 dimensions. An empty `local` lets the OpenCL driver choose the
/// work-group size (clEnqueueNDRangeKernel with a null local size).
struct NDRange {
  std::vector<size_t> global;
  std::vector<size_t> local;

  NDRange() = default;
  NDRange(std::vector<size_t> globalSizes, std::vector<size_t> localSizes = {})
      : global(std::move(globalSizes)), local(std::move(localSizes)) {}
  /// Work-items in all (product of the global sizes).
  size_t workItems() const;
};

/// Throws ApiError unless `range` has 1-3 global sizes, all positive, and `local`
/// is empty or has as many positive sizes, each dividing its global size (OpenCL 1.2 rule).
void checkRange(const NDRange& range);

/// What legality depends on, as the device reports it.
struct DeviceLimits {
  std::string name;
  std::string type;              ///< "CPU", "GPU", "ACCELERATOR" or "OTHER"
  size_t maxWorkGroupSize = 0;   ///< CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::vector<size_t> maxItems;  ///< CL_DEVICE_MAX_WORK_ITEM_SIZES (one per dimension it has)
};

/// Empty when `device` can run `range` (a checked range), else why not, e.g. "local size 1024
/// exceeds the device's work-group limit 256".
std::string legalityProblem(const DeviceLimits& device, const NDRange& range);

/// The work-group size a model is told for `range`: the product of the local sizes, or with none
/// given the largest power of two up to 256 that divides the first global size.
size_t modelWorkGroupSize(const NDRange& range);

/// Where a decision for device type `wanted` lands among `candidates`: the first legal one named
/// `wantedName` (when not empty: a model trained on measured devices), else the first legal one
/// of that type, else the first legal one of any type, with `note` saying why (`wanted` empty:
/// the first legal one, no note). Returns -1 (and the reasons in `note`) when no candidate can
/// run the range.
int pickCandidate(const std::vector<DeviceLimits>& candidates, const NDRange& range,
                  const std::string& wanted, std::string& note, const std::string& wantedName = "");

}  // namespace deeptune::api
