// What train and evaluate read before they call the training library: the device-mapping data
// (its notes printed) and the model --from names.
#pragma once

#include <string>

#include "api/devmap_input.hpp"
#include "tools/deeptune/cli_common.hpp"

namespace deeptune::cli {

/// api::readDevmapInput, its notes printed on stderr (one line each).
api::DevmapInput readDevmapData(const std::string& path);

/// `--from ARGUMENT` of `command`: a model file, or the platform name of a bundled model (amd,
/// nvidia, any case). The network's shape comes from the model, so --aux-scale, --pooling,
/// --max-length and --paper-padding given in `vm` are refused. Throws UsageError naming
/// `command`.
std::string startingModelPath(const std::string& argument, const po::variables_map& vm,
                              const std::string& command);

}  // namespace deeptune::cli
