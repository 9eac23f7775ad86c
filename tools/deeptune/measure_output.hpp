// What `measure` and `validate` share: their run options, what a resumed output kept, progress
// lines (the checks of the options' values: data/option_values.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "tools/deeptune/cli_common.hpp"

namespace deeptune::data {
class ResumableCsv;
}

namespace deeptune::cli {

/// The run options of `measure` and `validate`, at their defaults.
struct RunValues {
  long long wgsize = 0;  ///< --wgsize (0: automatic)
  double timeout = 60;   ///< --timeout: seconds per build and per measurement
  int runs = 6;          ///< --runs: timed runs after the warm-up
  uint64_t seed = 204;   ///< --seed: the payload's seed
};

/// Adds --timeout, then --runs where `runs` and --seed where `seed`, stored in `values`, with
/// the defaults and help text measure and validate share (--wgsize's help is the command's).
void addRunOptions(po::options_description& options, RunValues& values, bool runs = false,
                   bool seed = false);

/// Says on stderr what the writer of `output` found: rows kept from an earlier run, and the
/// bytes of a row an interrupted run left incomplete (cut off, measured again).
void reportResumed(const data::ResumableCsv& writer, const std::string& output);

}  // namespace deeptune::cli
