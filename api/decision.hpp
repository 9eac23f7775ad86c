// Decision: the one answer type of the advisor, the launcher and `deeptune predict`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// The OpenCL handle type, declared as <CL/cl.h> declares it (a repeated typedef is allowed), so
// this header does not pull the OpenCL headers in.
typedef struct _cl_device_id* cl_device_id;

namespace deeptune::api {

/// Which device a kernel launch runs on, and how that was decided. The model's part (`kernel`,
/// `deviceType`, `probability`, `tokens`...) is filled by every producer; `device` and
/// `deviceName` only where there were candidate devices (advisor, launcher).
struct Decision {
  std::string kernel;  ///< the kernel's name in the source
  /// The predictor that answered: the model file's (deeptune, source-boosted, fixed-factor;
  /// model/README.md, "Predictors"), or "fallback" (then `reason` says why).
  std::string method;
  std::string deviceType;  ///< "CPU" or "GPU" (the chosen device's type): the model's answer, or
                           ///< the fallback's
  double probability = 0;  ///< the model's probability of `deviceType`; 0 for a fallback
  /// For a model trained on measured devices (`deeptune measure`): the CL_DEVICE_NAME of the
  /// device it chose, which candidates are matched against first; empty for CPU/GPU models.
  std::string modelDevice;
  bool cached = false;    ///< served from the decision cache (nothing was rewritten or run)
  bool fallback = false;  ///< the model could not answer; `reason` says why
  std::string reason;     ///< fallback: the model's or the rewriter's error; else empty
  /// A fallback because the model had not answered within the advisor's decision budget; its
  /// answer is cached when it comes.
  bool deferred = false;

  uint64_t transferBytes = 0;  ///< bytes the launch moves (SPEC.md section 4 rule)
  size_t wgsize = 0;           ///< work-group size the model was told (product of the local sizes)

  cl_device_id device = nullptr;  ///< the candidate device chosen (null when none was given)
  std::string deviceName;         ///< its CL_DEVICE_NAME
  std::string note;  ///< empty, or why `device` is not of `deviceType` (missing, cannot run it)

  size_t tokens = 0;             ///< tokens the model read (after truncation)
  size_t skippedCharacters = 0;  ///< characters outside the model's vocabulary (ignored)
  /// How unlike the model's training data the kernel is (docs/results.md, "How far from what it
  /// learned"): the share of its normalized characters outside the model's vocabulary (0 to 1),
  /// and its distance to the nearest program the model was trained on (0: the token mix of one
  /// of them, 1: no token in common; -1 when the model file does not keep its programs or for a
  /// fallback).
  double unknownShare = 0;
  double nearestDistance = -1;
  /// Names the source uses but declares nowhere (a host -D or header not given).
  std::vector<std::string> undeclared;
  /// Hash of the normalized kernel the model read: equal for sources that differ only in what
  /// normalization removes (comments, names, layout). 0 for a fallback.
  uint64_t normalizedHash = 0;
};

}  // namespace deeptune::api
