// Static mapping baseline: the majority oracle of the training rows.
#include "baselines/static_mapping.hpp"

#include <memory>

#include "baselines/baseline_error.hpp"

namespace deeptune::baselines {

namespace {

std::string majorityOf(const std::vector<bool>& isGpu, const std::vector<size_t>& trainRows) {
  if (trainRows.empty()) throw BaselineError("static mapping: no training rows");
  size_t gpu = 0;
  for (size_t row : trainRows) {
    if (row >= isGpu.size()) {
      throw BaselineError("static mapping: training row " + std::to_string(row) + " out of range");
    }
    gpu += isGpu[row] ? 1 : 0;
  }
  return majorityOfCounts(gpu, trainRows.size());
}

std::vector<bool> gpuOracles(const std::vector<data::DevmapRow>& rows) {
  std::vector<bool> isGpu;
  isGpu.reserve(rows.size());
  for (const data::DevmapRow& row : rows) isGpu.push_back(row.oracle == "GPU");
  return isGpu;
}

}  // namespace

std::string majorityOfCounts(size_t gpuRows, size_t rows) {
  if (rows == 0) throw BaselineError("static mapping: no training rows");
  return 2 * gpuRows >= rows ? "GPU" : "CPU";
}

std::string majorityDevice(const std::vector<data::DevmapRow>& rows,
                           const std::vector<size_t>& trainRows) {
  return majorityOf(gpuOracles(rows), trainRows);
}

data::DevmapPredictor staticMappingPredictor(const std::vector<data::DevmapRow>& rows) {
  auto isGpu = std::make_shared<const std::vector<bool>>(gpuOracles(rows));
  return [isGpu](const std::vector<size_t>& trainRows, const std::vector<size_t>& testRows, int) {
    return std::vector<std::string>(testRows.size(), majorityOf(*isGpu, trainRows));
  };
}

}  // namespace deeptune::baselines
