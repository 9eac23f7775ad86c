// Thread-coarsening data per device: kernels, their measured factors and speedups.
#include "data/coarsening_kernels.hpp"

#include <algorithm>
#include <iterator>
#include <set>

#include "data/data_error.hpp"

namespace deeptune::data {

const std::vector<int>& coarseningFactors() {
  static const std::vector<int> factors = {1, 2, 4, 8, 16, 32};
  return factors;
}

std::vector<std::string> coarseningDevices(const std::vector<CoarseningRow>& rows) {
  std::set<std::string> devices;
  for (const auto& row : rows) {
    for (const auto& [device, runtime] : row.runtimeNs) devices.insert(device);
  }
  return {devices.begin(), devices.end()};
}

double CoarseningKernel::speedup(int factor) const {
  if (runtimeNs.empty() || runtimeNs.count(1) == 0) {
    throw DataError("kernel '" + kernel + "' has no runtime at factor 1");
  }
  auto measured = runtimeNs.upper_bound(factor);  // first factor above the prediction
  if (measured != runtimeNs.begin()) --measured;  // the largest measured one not above it
  return runtimeNs.at(1) / measured->second;
}

std::vector<CoarseningKernel> coarseningKernels(const std::vector<CoarseningRow>& rows,
                                                const std::string& device) {
  std::vector<CoarseningKernel> kernels;
  for (const auto& row : rows) {
    auto it = std::find_if(kernels.begin(), kernels.end(),
                           [&](const CoarseningKernel& k) { return k.kernel == row.kernel; });
    if (it == kernels.end()) {
      kernels.push_back({row.kernel, row.src, {}, {}, 1});
      it = std::prev(kernels.end());
    }
    const auto runtime = row.runtimeNs.find(device);
    if (runtime != row.runtimeNs.end()) {
      it->runtimeNs[row.cf] = runtime->second;
      if (row.pca) it->pca[row.cf] = *row.pca;
    }
  }
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [](const CoarseningKernel& k) { return k.runtimeNs.empty(); }),
                kernels.end());
  if (kernels.empty()) throw DataError("no kernel has a runtime on device '" + device + "'");
  for (CoarseningKernel& kernel : kernels) {
    kernel.bestFactor =
        std::min_element(kernel.runtimeNs.begin(), kernel.runtimeNs.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; })
            ->first;
  }
  return kernels;
}

}  // namespace deeptune::data
