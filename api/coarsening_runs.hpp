// One kernel run at each thread-coarsening factor on every device (measure and validate share it).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "data/source_options.hpp"
#include "runtime/isolation.hpp"
#include "runtime/verdict.hpp"

namespace deeptune::rewriter {
class Normalizer;
}

namespace deeptune::api {

/// The launch every factor shares (sizes are the un-coarsened kernel's).
struct FactorLaunch {
  size_t gsize = 0;
  size_t wgsize = 0;  ///< 0: the driver's default, min(S, 256)
  int runs = 6;
  uint64_t seed = 204;
  std::string buildFlags;  ///< the host's -D/-I for clBuildProgram
};

/// Coarsens `kernel` of `source` by each factor (1 = as it is) and runs every variant in
/// isolated workers (runtime::measureIsolated), each coarsened one checked against factor 1
/// (FACTOR_DISAGREES). Factors for which `wanted` is false are skipped. Returns nothing when the
/// transform refuses every factor above 1 (the refusal in `refusal`).
std::vector<runtime::FactorRun> runFactors(
    const rewriter::Normalizer& normalizer, const std::string& source, const std::string& file,
    const std::string& kernel, const std::vector<size_t>& factors,
    const data::SourceOptions& sourceOptions, const FactorLaunch& launch, size_t deviceCount,
    const runtime::IsolationOptions& isolation, const std::function<bool(size_t)>& wanted,
    std::string& refusal);

}  // namespace deeptune::api
