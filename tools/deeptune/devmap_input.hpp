// The device-mapping data of train and evaluate: the paper's CSV, or a measure CSV normalized.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "data/measured_devmap.hpp"
#include "model/deeptune_model.hpp"
#include "tools/deeptune/cli_common.hpp"

namespace deeptune::cli {

/// Rows to train or evaluate on, and the devices their labels name.
struct DevmapInput {
  std::vector<data::DevmapRow> rows;
  /// Empty for the paper's data (the labels are the types CPU and GPU); for a measure CSV the
  /// two devices its label slots stand for (data::MeasuredDevmap).
  std::vector<data::MeasuredDevice> devices;
};

/// Reads `path`: a CSV in the paper's format as it is, or one `deeptune measure` wrote, whose
/// rows become the paper's (label = the faster usable device, src = the kernel normalized by the
/// rewriter, Grewe's static counts estimated from it, ties marked). Says on stderr, in one line,
/// how many measured rows were kept, skipped and tied. Throws data::DataError for bad input.
DevmapInput readDevmapInput(const std::string& path);

/// The model `--from` fine-tunes (train, evaluate): its file and its first network.
struct StartingModel {
  std::string path;
  model::DeepTuneModel model;
};

/// `--from ARGUMENT` of `command`: a model file, or the platform name of a bundled model (amd,
/// nvidia, any case), loaded; it must be a devmap model. The network's shape comes from it, so
/// --aux-scale, --pooling, --max-length and --paper-padding given in `vm` are refused. Throws
/// UsageError (naming `command`) or model::ModelError.
StartingModel loadStartingModel(const std::string& argument, const po::variables_map& vm,
                                const std::string& command);

}  // namespace deeptune::cli
