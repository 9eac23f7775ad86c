// The out-of-process predictor's server side: the protocol PredictionClient speaks, over streams.
#pragma once

#include <iosfwd>
#include <string>

namespace deeptune::api {

/// Loads `modelPath` (empty: the bundled model of `platform`) and answers prediction requests
/// until `in` ends. Records are one line each
/// (runtime/line_record.hpp): first `ready MODEL` (or `error MESSAGE` and false when the model
/// does not load); then per request `predict KERNEL TRANSFER WGSIZE SOURCE BUILD_OPTIONS` the
/// answer `ok KERNEL DEVICE PROBABILITY NORMALIZED_HASH` or `error MESSAGE`. A malformed request
/// gets an error and the service goes on. Used by `deeptune __predict-server`.
bool servePredictions(const std::string& modelPath, const std::string& platform, std::istream& in,
                      std::ostream& out);

}  // namespace deeptune::api
