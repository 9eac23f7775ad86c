// Durations as a person reads them in progress lines and reports: "1h02m", "3m05s", "42s".
#pragma once

#include <string>

namespace deeptune::data {

/// `seconds` rounded to whole seconds: "1h02m" from an hour on, "3m05s" from a minute on, else
/// "42s".
std::string formatDuration(double seconds);

}  // namespace deeptune::data
