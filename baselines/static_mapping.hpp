// Static mapping baseline: every kernel goes to the device that is most often best in training.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/devmap_method.hpp"

namespace deeptune::baselines {

/// The static mapping's one rule: "GPU" when at least half of `rows` training rows (`gpuRows` of
/// them with oracle GPU) are GPU rows, else "CPU". Throws BaselineError when `rows` is 0.
std::string majorityOfCounts(size_t gpuRows, size_t rows);

/// The majority oracle of rows[trainRows]: "GPU" if at least half of them have oracle GPU (ties
/// go to the GPU, as the data's oracle does for equal runtimes), else "CPU". Throws BaselineError
/// if trainRows is empty or holds an index out of range.
std::string majorityDevice(const std::vector<data::DevmapRow>& rows,
                           const std::vector<size_t>& trainRows);

/// The static mapping as a predictor over `rows`: every test row gets majorityDevice() of the
/// training rows. Copies the oracle labels it needs, so `rows` may go away afterwards.
data::DevmapPredictor staticMappingPredictor(const std::vector<data::DevmapRow>& rows);

}  // namespace deeptune::baselines
