// Status names and precedence.
#include "runtime/status.hpp"

#include <array>
#include <utility>

namespace deeptune::runtime {

namespace {

const std::array<std::pair<Status, const char*>, 10> kNames = {{
    {Status::kBuildError, "BUILD_ERROR"},
    {Status::kTimeout, "TIMEOUT"},
    {Status::kCrash, "CRASH"},
    {Status::kRunError, "RUN_ERROR"},
    {Status::kNoOutput, "NO_OUTPUT"},
    {Status::kNondeterministic, "NONDETERMINISTIC"},
    {Status::kInputInsensitive, "INPUT_INSENSITIVE"},
    {Status::kFactorDisagrees, "FACTOR_DISAGREES"},
    {Status::kDevicesDisagree, "DEVICES_DISAGREE"},
    {Status::kOk, "OK"},
}};

}  // namespace

std::string statusName(Status status) {
  for (const auto& [value, name] : kNames) {
    if (value == status) return name;
  }
  return "OK";
}

std::optional<Status> parseStatus(const std::string& name) {
  for (const auto& [value, text] : kNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

Status worstStatus(const std::vector<Status>& statuses) {
  Status worst = Status::kOk;
  for (Status status : statuses) {
    if (static_cast<int>(status) < static_cast<int>(worst)) worst = status;
  }
  return worst;
}

}  // namespace deeptune::runtime
