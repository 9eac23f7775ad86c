// The device-mapping data of train and evaluate: the paper's CSV, or a measure CSV whose kernels
// the rewriter normalizes (the join of the measured reader and the rewriter).
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/measured_devmap.hpp"

namespace deeptune::api {

/// Rows to train or evaluate on, and the devices their labels name.
struct DevmapInput {
  std::vector<data::DevmapRow> rows;
  /// Empty for the paper's data (the labels are the types CPU and GPU); for a measure CSV the
  /// two devices its label slots stand for (data::MeasuredDevmap).
  std::vector<data::MeasuredDevice> devices;
  /// For a measure CSV, what a person should read, one line each: every kernel left out (it did
  /// not normalize), then how many measured rows were kept, skipped and tied.
  std::vector<std::string> notes;
};

/// Reads `path`: a CSV in the paper's format as it is, or one `deeptune measure` wrote, whose
/// rows become the paper's (label = the faster usable device, src = the kernel normalized by the
/// rewriter, Grewe's static counts estimated from it, ties marked). Throws data::DataError for
/// bad input.
DevmapInput readDevmapInput(const std::string& path);

}  // namespace deeptune::api
