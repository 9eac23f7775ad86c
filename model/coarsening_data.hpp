// Thread-coarsening examples from runtime CSV rows: one kernel per example, the best factor as
// label.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "model/deeptune_model.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::model {

/// The coarsening factors, in label order: 1, 2, 4, 8, 16, 32.
const std::vector<int>& coarseningFactors();

/// The coarsening task's metadata (no aux inputs, labels "1" .. "32").
ModelInfo coarseningModelInfo(const tokenizer::Vocabulary& vocabulary, int maxLength);

/// The devices (runtime columns) measured in `rows`, sorted.
std::vector<std::string> coarseningDevices(const std::vector<data::CoarseningRow>& rows);

/// One kernel of a coarsening data set on one device.
struct CoarseningKernel {
  std::string kernel;
  std::string src;                  ///< the un-coarsened source (its first row's)
  std::map<int, double> runtimeNs;  ///< factor -> runtime on the device (measured ones only)
  int bestFactor = 1;               ///< the factor with the lowest runtime
};

/// The kernels of `rows` measured on `device`, in order of first appearance (a kernel with no
/// runtime on it is left out). Throws ModelError naming the device if none is measured there.
std::vector<CoarseningKernel> coarseningKernels(const std::vector<data::CoarseningRow>& rows,
                                                const std::string& device);

/// One example per kernel: its source's tokens, label = index of its best factor.
std::vector<Example> coarseningExamples(const std::vector<CoarseningKernel>& kernels,
                                        const tokenizer::Vocabulary& vocabulary, int maxLength);

/// A stable hash of the kernels (names, sources, runtimes) for provenance.
std::string coarseningFingerprint(const std::vector<CoarseningKernel>& kernels);

}  // namespace deeptune::model
