// Thread-coarsening data per device: kernels, their measured factors and speedups.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "data/datasets.hpp"

namespace deeptune::data {

/// The coarsening factors, in label order: 1, 2, 4, 8, 16, 32.
const std::vector<int>& coarseningFactors();

/// The devices (runtime columns) measured in `rows`, sorted.
std::vector<std::string> coarseningDevices(const std::vector<CoarseningRow>& rows);

/// One kernel of a coarsening data set on one device.
struct CoarseningKernel {
  std::string kernel;
  std::string src;                  ///< the un-coarsened source (its first row's)
  std::map<int, double> runtimeNs;  ///< factor -> runtime on the device (measured ones only)
  /// factor -> its row's PCA1..7 (Magni's features); empty when the data has none.
  std::map<int, std::array<double, 7>> pca;
  int bestFactor = 1;  ///< the factor with the lowest runtime

  /// runtime(1) / runtime(factor): SPEC §3's speedup. A factor with no runtime is clipped to the
  /// largest measured factor below it (the largest measured one when it is beyond them all).
  double speedup(int factor) const;
};

/// The kernels of `rows` measured on `device`, in order of first appearance (a kernel with no
/// runtime on it is left out). Throws DataError naming the device if none is measured there.
std::vector<CoarseningKernel> coarseningKernels(const std::vector<CoarseningRow>& rows,
                                                const std::string& device);

}  // namespace deeptune::data
