// Durations as a person reads them: "1h02m", "3m05s", "42s".
#include "data/duration_text.hpp"

#include <cstdio>

namespace deeptune::data {

std::string formatDuration(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%ldh%02ldm", total / 3600, (total % 3600) / 60);
  } else if (total >= 60) {
    std::snprintf(text, sizeof text, "%ldm%02lds", total / 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%lds", total);
  }
  return text;
}

}  // namespace deeptune::data
