// One kernel run at each thread-coarsening factor on every device (measure and validate share it).
#include "api/coarsening_runs.hpp"

#include <map>

#include "rewriter/normalizer.hpp"
#include "rewriter/rewrite_error.hpp"

namespace deeptune::api {

std::vector<runtime::FactorRun> runFactors(
    const rewriter::Normalizer& normalizer, const std::string& source, const std::string& file,
    const std::string& kernel, const std::vector<size_t>& factors,
    const data::SourceOptions& sourceOptions, const FactorLaunch& launch, size_t deviceCount,
    const runtime::IsolationOptions& isolation, const std::function<bool(size_t)>& wanted,
    std::string& refusal) {
  std::map<size_t, rewriter::CoarsenedKernel> variants;
  refusal.clear();
  bool coarsens = false;
  for (size_t factor : factors) {
    if (factor == 1) continue;
    coarsens = true;
    try {
      variants.emplace(factor, normalizer.coarsen(source, file, kernel, static_cast<int>(factor),
                                                  false, sourceOptions));
    } catch (const rewriter::RewriteError& e) {
      refusal = e.what();
    }
  }
  if (coarsens && variants.empty()) return {};
  std::vector<runtime::FactorRun> runs;
  for (size_t factor : factors) {
    if (!wanted(factor)) continue;
    runtime::FactorRun run;
    run.factor = factor;
    const auto variant = variants.find(factor);
    if (factor != 1 && variant == variants.end()) {
      run.refusal = refusal;
      runs.push_back(std::move(run));
      continue;
    }
    runtime::MeasureRequest request;
    request.source = factor == 1 ? source : variant->second.source;
    request.buildFlags = launch.buildFlags;
    request.kernels = {factor == 1 ? kernel : variant->second.kernel};
    request.gsizes = {launch.gsize};
    request.wgsize = launch.wgsize;
    request.runs = launch.runs;
    request.seed = launch.seed;
    request.coarsening = factor;
    if (factor != 1) request.referenceSource = source;
    runtime::measureIsolated(
        request, deviceCount, isolation,
        [&](const runtime::KernelResult& result) { run.devices = result.devices; });
    run.devices.resize(deviceCount);
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace deeptune::api
