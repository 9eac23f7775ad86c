// Thread-coarsening examples from runtime CSV rows: one kernel per example, the best factor as
// label.
#include "model/coarsening_data.hpp"

#include <algorithm>
#include <set>

#include "data/checksum.hpp"
#include "model/devmap_data.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {

const std::vector<int>& coarseningFactors() {
  static const std::vector<int> factors = {1, 2, 4, 8, 16, 32};
  return factors;
}

ModelInfo coarseningModelInfo(const tokenizer::Vocabulary& vocabulary, int maxLength) {
  ModelInfo info;
  info.task = "coarsening";
  info.vocabulary = vocabulary.tokens();
  for (int factor : coarseningFactors()) info.labels.push_back(std::to_string(factor));
  info.maxLength = maxLength;
  return info;
}

std::vector<std::string> coarseningDevices(const std::vector<data::CoarseningRow>& rows) {
  std::set<std::string> devices;
  for (const auto& row : rows) {
    for (const auto& [device, runtime] : row.runtimeNs) devices.insert(device);
  }
  return {devices.begin(), devices.end()};
}

std::vector<CoarseningKernel> coarseningKernels(const std::vector<data::CoarseningRow>& rows,
                                                const std::string& device) {
  std::vector<CoarseningKernel> kernels;
  for (const auto& row : rows) {
    auto it = std::find_if(kernels.begin(), kernels.end(),
                           [&](const CoarseningKernel& k) { return k.kernel == row.kernel; });
    if (it == kernels.end()) {
      kernels.push_back({row.kernel, row.src, {}, 1});
      it = std::prev(kernels.end());
    }
    const auto runtime = row.runtimeNs.find(device);
    if (runtime != row.runtimeNs.end()) it->runtimeNs[row.cf] = runtime->second;
  }
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [](const CoarseningKernel& k) { return k.runtimeNs.empty(); }),
                kernels.end());
  if (kernels.empty()) throw ModelError("no kernel has a runtime on device '" + device + "'");
  for (CoarseningKernel& kernel : kernels) {
    kernel.bestFactor =
        std::min_element(kernel.runtimeNs.begin(), kernel.runtimeNs.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; })
            ->first;
  }
  return kernels;
}

std::vector<Example> coarseningExamples(const std::vector<CoarseningKernel>& kernels,
                                        const tokenizer::Vocabulary& vocabulary, int maxLength) {
  const std::vector<int>& factors = coarseningFactors();
  std::vector<Example> examples;
  for (const CoarseningKernel& kernel : kernels) {
    const auto label = std::find(factors.begin(), factors.end(), kernel.bestFactor);
    if (label == factors.end()) {
      throw ModelError("kernel '" + kernel.kernel + "': best factor " +
                       std::to_string(kernel.bestFactor) + " is not one of 1, 2, 4, 8, 16, 32");
    }
    Example example;
    example.tokens = modelTokens(vocabulary, kernel.src, maxLength);
    example.label = static_cast<int>(label - factors.begin());
    examples.push_back(std::move(example));
  }
  return examples;
}

std::string coarseningFingerprint(const std::vector<CoarseningKernel>& kernels) {
  std::string material;
  for (const CoarseningKernel& kernel : kernels) {
    material += kernel.kernel + '\0' + kernel.src + '\0';
    for (const auto& [factor, runtime] : kernel.runtimeNs) {
      material += std::to_string(factor) + ':' + std::to_string(runtime) + ';';
    }
  }
  return data::hex64(data::fnv1a64(material));
}

}  // namespace deeptune::model
