// What `measure` and `validate` share: their run options, what a resumed output kept.
#include "tools/deeptune/measure_output.hpp"

#include <iostream>

#include "data/resumable_csv.hpp"

namespace deeptune::cli {

void addRunOptions(po::options_description& options, RunValues& values, bool runs, bool seed) {
  options.add_options()("timeout", po::value(&values.timeout)->default_value(60),
                        "seconds per build and per measurement");
  if (runs) {
    options.add_options()("runs", po::value(&values.runs)->default_value(6),
                          "timed runs after the warm-up (at least 5)");
  }
  if (seed) {
    options.add_options()("seed", po::value(&values.seed)->default_value(204), "payload seed");
  }
}

void reportResumed(const data::ResumableCsv& writer, const std::string& output) {
  if (writer.droppedBytes() > 0) {
    std::cerr << "measure: " << output << ": cut off an incomplete last row ("
              << writer.droppedBytes() << " bytes) that an interrupted run left; measured again\n";
  }
  if (writer.kept() > 0) {
    std::cerr << "measure: resuming " << output << ": " << writer.kept()
              << " rows kept, not measured again\n";
  }
}

}  // namespace deeptune::cli
