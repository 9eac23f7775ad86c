// Device legality: range checks, device limits against a range, and the candidate a type lands on.
#include "api/device_legality.hpp"

namespace deeptune::api {

size_t NDRange::workItems() const {
  size_t items = 1;
  for (size_t g : global) items *= g;
  return items;
}

void checkRange(const NDRange& range) {
  if (range.global.empty() || range.global.size() > 3) {
    throw ApiError("an ND-range has 1 to 3 dimensions, not " + std::to_string(range.global.size()));
  }
  if (!range.local.empty() && range.local.size() != range.global.size()) {
    throw ApiError("the local size has " + std::to_string(range.local.size()) +
                   " dimensions, the global size " + std::to_string(range.global.size()));
  }
  for (size_t d = 0; d < range.global.size(); ++d) {
    if (range.global[d] == 0) {
      throw ApiError("global size of dimension " + std::to_string(d) + " is 0");
    }
    if (range.local.empty()) continue;
    if (range.local[d] == 0 || range.global[d] % range.local[d] != 0) {
      throw ApiError("global size " + std::to_string(range.global[d]) + " of dimension " +
                     std::to_string(d) + " is not a multiple of the local size " +
                     std::to_string(range.local[d]));
    }
  }
}

std::string legalityProblem(const DeviceLimits& device, const NDRange& range) {
  if (range.global.size() > device.maxItems.size()) {
    return std::to_string(range.global.size()) + " dimensions exceed the device's " +
           std::to_string(device.maxItems.size());
  }
  if (range.local.empty()) return "";
  size_t group = 1;
  for (size_t d = 0; d < range.local.size(); ++d) {
    group *= range.local[d];
    if (range.local[d] > device.maxItems[d]) {
      return "local size " + std::to_string(range.local[d]) + " of dimension " + std::to_string(d) +
             " exceeds the device's limit " + std::to_string(device.maxItems[d]);
    }
  }
  if (group > device.maxWorkGroupSize) {
    return "work-group of " + std::to_string(group) + " items exceeds the device's limit " +
           std::to_string(device.maxWorkGroupSize);
  }
  return "";
}

size_t modelWorkGroupSize(const NDRange& range) {
  if (!range.local.empty()) {
    size_t group = 1;
    for (size_t l : range.local) group *= l;
    return group;
  }
  size_t local = 256;
  while (local > 1 && range.global.at(0) % local != 0) local /= 2;
  return local;
}

int pickCandidate(const std::vector<DeviceLimits>& candidates, const NDRange& range,
                  const std::string& wanted, std::string& note, const std::string& wantedName) {
  if (!wantedName.empty()) {
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (candidates[i].name == wantedName && legalityProblem(candidates[i], range).empty()) {
        note.clear();
        return static_cast<int>(i);
      }
    }
  }
  std::string refused;
  int firstLegal = -1;
  bool wantedSeen = false;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const DeviceLimits& device = candidates[i];
    const std::string problem = legalityProblem(device, range);
    wantedSeen = wantedSeen || device.type == wanted;
    if (!problem.empty()) {
      refused += (refused.empty() ? "" : "; ") + device.name + ": " + problem;
      continue;
    }
    if (wanted.empty() || device.type == wanted) {
      note = wantedName.empty() ? ""
                                : "no candidate named " + wantedName + " can run this range; " +
                                      "running on the " + wanted + " " + device.name;
      return static_cast<int>(i);
    }
    if (firstLegal < 0) firstLegal = static_cast<int>(i);
  }
  if (firstLegal < 0) {
    note = "no candidate device can run this range (" + refused + ")";
    return -1;
  }
  note = wantedSeen
             ? "no " + wanted + " candidate can run this range (" + refused + "); running on " +
                   candidates[firstLegal].type + " " + candidates[firstLegal].name
             : "no " + wanted + " among the candidate devices; running on " +
                   candidates[firstLegal].type + " " + candidates[firstLegal].name;
  return firstLegal;
}

}  // namespace deeptune::api
