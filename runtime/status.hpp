// The status of one kernel measurement on one device, and the order in which statuses win.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace deeptune::runtime {

/// Listed by precedence: when several apply to one measurement the first listed is reported (the
/// failed checks are all kept in Measurement::failedChecks). The first four stop a measurement;
/// the five checks after them are verdicts on a run that produced timings.
enum class Status {
  kBuildError,        ///< the program did not build for the device (log in the message)
  kTimeout,           ///< the worker process passed its time limit and was killed
  kCrash,             ///< the worker process died (signal or exit) during the measurement
  kRunError,          ///< an OpenCL call failed, or an argument type has no payload rule
  kNoOutput,          ///< no output buffer changed
  kNondeterministic,  ///< two runs on equal input gave different output
  kInputInsensitive,  ///< different input gave equal output
  kFactorDisagrees,   ///< a coarsened kernel's outputs differ from the un-coarsened kernel's
  kDevicesDisagree,   ///< outputs of the same input on two devices differ beyond the tolerance
  kOk,
};

/// "OK", "BUILD_ERROR", "TIMEOUT", "CRASH", "RUN_ERROR", "NO_OUTPUT", "NONDETERMINISTIC",
/// "INPUT_INSENSITIVE", "FACTOR_DISAGREES", "DEVICES_DISAGREE".
std::string statusName(Status status);

/// The inverse of statusName(); nullopt for any other text.
std::optional<Status> parseStatus(const std::string& name);

/// The status that wins among `statuses` (kOk for an empty list).
Status worstStatus(const std::vector<Status>& statuses);

}  // namespace deeptune::runtime
