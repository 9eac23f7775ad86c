// Kernel measurements in fresh worker processes: request and record encoding, the worker loop,
// and the parent that restarts workers after a hang or a crash.
#include "runtime/isolation.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <regex>

#include "data/child_process.hpp"
#include "data/data_error.hpp"
#include "data/text_split.hpp"
#include "runtime/line_record.hpp"
#include "runtime/runtime_error.hpp"

namespace deeptune::runtime {

namespace {

constexpr size_t kMaxMessage = 16384;  ///< bytes of a build log or message sent back per item
constexpr int kMaxEarlyDeaths = 2;     ///< workers dying while building, then give up

uint64_t toNumber(const std::string& text, const char* what) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0) {
    throw RuntimeError(std::string("worker protocol: bad ") + what + " '" + text + "'");
  }
  return value;
}

std::string capped(const std::string& text) {
  return text.size() <= kMaxMessage ? text : text.substr(0, kMaxMessage) + "\n[... cut]";
}

std::string joinStatuses(const std::vector<Status>& statuses) {
  std::string text;
  for (Status s : statuses) text += (text.empty() ? "" : ",") + statusName(s);
  return text;
}

std::string encodeMeasurement(size_t item, const Measurement& m) {
  std::string runs;
  for (const RunTiming& run : m.runs) {
    runs += (runs.empty() ? "" : ",") + std::to_string(run.h2dNs) + "/" +
            std::to_string(run.kernelNs) + "/" + std::to_string(run.d2hNs);
  }
  return encodeRecord({"result", std::to_string(item), statusName(m.status),
                       joinStatuses(m.failedChecks), std::to_string(m.wgsize),
                       std::to_string(m.globalSize), std::to_string(m.transferBytes), runs,
                       capped(m.message)});
}

Measurement decodeMeasurement(const std::vector<std::string>& f) {
  if (f.size() != 9) throw RuntimeError("worker protocol: bad result record");
  Measurement m;
  const auto status = parseStatus(f[2]);
  if (!status) throw RuntimeError("worker protocol: bad status '" + f[2] + "'");
  m.status = *status;
  for (const std::string& name : data::splitText(f[3], ',')) {
    const auto check = parseStatus(name);
    if (!check) throw RuntimeError("worker protocol: bad check '" + name + "'");
    m.failedChecks.push_back(*check);
  }
  m.wgsize = toNumber(f[4], "wgsize");
  m.globalSize = toNumber(f[5], "global size");
  m.transferBytes = toNumber(f[6], "transfer");
  for (const std::string& run : data::splitText(f[7], ',')) {
    const size_t a = run.find('/');
    const size_t b = run.find('/', a == std::string::npos ? a : a + 1);
    if (a == std::string::npos || b == std::string::npos) {
      throw RuntimeError("worker protocol: bad run '" + run + "'");
    }
    RunTiming timing;
    timing.h2dNs = toNumber(run.substr(0, a), "h2d");
    timing.kernelNs = toNumber(run.substr(a + 1, b - a - 1), "kernel");
    timing.d2hNs = toNumber(run.substr(b + 1), "d2h");
    m.runs.push_back(timing);
  }
  m.message = f[8];
  return m;
}

std::string encodeDevice(const DeviceInfo& d) {
  return encodeRecord({"device", std::to_string(d.index), d.name, d.vendor, d.type, d.platform,
                       d.platformVersion, d.deviceVersion, d.driverVersion,
                       std::to_string(d.computeUnits), std::to_string(d.globalMemBytes),
                       std::to_string(d.maxAllocBytes), std::to_string(d.localMemBytes),
                       std::to_string(d.maxWorkGroupSize), std::to_string(d.addressBits)});
}

DeviceInfo decodeDevice(const std::vector<std::string>& f) {
  if (f.size() != 15) throw RuntimeError("worker protocol: bad device record");
  DeviceInfo d;
  d.index = static_cast<int>(toNumber(f[1], "device index"));
  d.name = f[2];
  d.vendor = f[3];
  d.type = f[4];
  d.platform = f[5];
  d.platformVersion = f[6];
  d.deviceVersion = f[7];
  d.driverVersion = f[8];
  d.computeUnits = static_cast<int>(toNumber(f[9], "compute units"));
  d.globalMemBytes = toNumber(f[10], "global memory");
  d.maxAllocBytes = toNumber(f[11], "largest allocation");
  d.localMemBytes = toNumber(f[12], "local memory");
  d.maxWorkGroupSize = toNumber(f[13], "work-group size");
  d.addressBits = static_cast<int>(toNumber(f[14], "address bits"));
  return d;
}

/// Writes a request to a private temporary file, removed on scope exit.
struct RequestFile {
  std::string path;
  explicit RequestFile(const std::string& text) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern =
        std::string(dir != nullptr && *dir ? dir : "/tmp") + "/deeptune-request-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw RuntimeError("cannot create a request file in " + pattern);
    path = pattern;
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n <= 0) {
        ::close(fd);
        throw RuntimeError("cannot write the request file " + path);
      }
      done += static_cast<size_t>(n);
    }
    ::close(fd);
  }
  ~RequestFile() {
    if (!path.empty()) std::remove(path.c_str());
  }
  RequestFile(const RequestFile&) = delete;
  RequestFile& operator=(const RequestFile&) = delete;
};

std::string lastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return "";
  const size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

Measurement failed(Status status, const std::string& message) {
  Measurement m;
  m.status = status;
  m.message = message;
  return m;
}

}  // namespace

std::string encodeRequest(const MeasureRequest& r) {
  std::string text = "deeptune-measure-request\t1\n";
  text += encodeRecord({"listDevices", r.listDevices ? "1" : "0"}) + "\n";
  text += encodeRecord({"start", std::to_string(r.startItem)}) + "\n";
  text += encodeRecord({"wgsize", std::to_string(r.wgsize)}) + "\n";
  text += encodeRecord({"runs", std::to_string(r.runs)}) + "\n";
  text += encodeRecord({"seed", std::to_string(r.seed)}) + "\n";
  text += encodeRecord({"guard", std::to_string(r.guardBytes)}) + "\n";
  text += encodeRecord({"coarsening", std::to_string(r.coarsening)}) + "\n";
  for (size_t g : r.gsizes) text += encodeRecord({"gsize", std::to_string(g)}) + "\n";
  for (const std::string& k : r.kernels) text += encodeRecord({"kernel", k}) + "\n";
  text += encodeRecord({"build", r.buildFlags}) + "\n";
  text += encodeRecord({"source", r.source}) + "\n";
  if (!r.referenceSource.empty()) text += encodeRecord({"reference", r.referenceSource}) + "\n";
  return text;
}

MeasureRequest decodeRequest(const std::string& text) {
  MeasureRequest r;
  size_t start = 0;
  bool header = false;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::vector<std::string> f = decodeRecord(text.substr(start, end - start));
    start = end + 1;
    if (f.size() != 2) throw RuntimeError("measure request: malformed line");
    const std::string& key = f[0];
    if (key == "deeptune-measure-request")
      header = true;
    else if (key == "listDevices")
      r.listDevices = f[1] == "1";
    else if (key == "start")
      r.startItem = toNumber(f[1], "start");
    else if (key == "wgsize")
      r.wgsize = toNumber(f[1], "wgsize");
    else if (key == "runs")
      r.runs = static_cast<int>(toNumber(f[1], "runs"));
    else if (key == "seed")
      r.seed = toNumber(f[1], "seed");
    else if (key == "guard")
      r.guardBytes = toNumber(f[1], "guard");
    else if (key == "coarsening")
      r.coarsening = toNumber(f[1], "coarsening");
    else if (key == "reference")
      r.referenceSource = f[1];
    else if (key == "gsize")
      r.gsizes.push_back(toNumber(f[1], "gsize"));
    else if (key == "kernel")
      r.kernels.push_back(f[1]);
    else if (key == "source")
      r.source = f[1];
    else if (key == "build")
      r.buildFlags = f[1];
    else
      throw RuntimeError("measure request: unknown field '" + key + "'");
  }
  if (!header) throw RuntimeError("measure request: not a deeptune measure request");
  return r;
}

std::vector<std::string> scanKernelNames(const std::string& source) {
  static const std::regex pattern(
      R"((?:^|[^\w])(?:__kernel|kernel)\s+(?:__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)\s*)*void\s+(\w+)\s*\()");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), pattern);
       it != std::sregex_iterator(); ++it) {
    names.push_back((*it)[1].str());
  }
  return names;
}

namespace {

/// The factor check of a coarsened request (FACTOR_DISAGREES): each measurement that passed its
/// checks is compared with the un-coarsened kernel's on the same device and input. The
/// un-coarsened program is built per device lazily (only devices where the coarsened one built
/// need it).
class FactorCheck {
 public:
  FactorCheck(const MeasureRequest& request, size_t deviceCount)
      : request_(request), references_(deviceCount), failure_(deviceCount) {}

  void operator()(size_t d, const std::string& kernel, const DriveOptions& coarsened,
                  Measurement& m) {
    if (request_.referenceSource.empty() || !m.hasTimings() || !m.failedChecks.empty()) return;
    if (!references_[d] && failure_[d].empty()) {
      try {
        auto driver = std::make_unique<Driver>(static_cast<int>(d));
        const BuildResult build = driver->build(request_.referenceSource, request_.buildFlags);
        if (build.ok) {
          references_[d] = std::move(driver);
        } else {
          failure_[d] = "the un-coarsened source does not build: " + capped(build.log);
        }
      } catch (const RuntimeError& e) {
        failure_[d] = e.what();
      }
    }
    std::string problem = failure_[d];
    if (problem.empty()) {
      DriveOptions original = coarsened;
      original.coarsening = 1;
      original.runs = 1;
      const Measurement reference = references_[d]->measure(kernel, original);
      std::string where;
      if (!reference.hasTimings() || !reference.failedChecks.empty()) {
        problem = "the un-coarsened kernel gave " + statusName(reference.status) + ": " +
                  reference.message;
      } else if (!outputsAgree(reference.outputs, m.outputs, &where)) {
        problem = "outputs differ from factor 1: " + where;
      }
    }
    if (problem.empty()) return;
    m.failedChecks.push_back(Status::kFactorDisagrees);
    m.status = worstStatus(m.failedChecks);
    m.message = "FACTOR_DISAGREES: " + problem;
  }

 private:
  const MeasureRequest& request_;
  std::vector<std::unique_ptr<Driver>> references_;
  std::vector<std::string> failure_;  ///< why a device's un-coarsened program is missing
};

using data::ChildExit;

/// data::runChild, with its own failures (the worker cannot start) as RuntimeError: a worker that
/// cannot start is a runtime failure. What onLine throws passes on unchanged.
ChildExit runWorker(const std::vector<std::string>& argv, double timeoutSeconds,
                    const std::function<void(const std::string& line)>& onLine) {
  bool inLine = false;  // an exception thrown while true comes from onLine
  try {
    return data::runChild(argv, timeoutSeconds, [&](const std::string& line) {
      inLine = true;
      onLine(line);
      inLine = false;
    });
  } catch (const data::DataError& e) {
    if (inLine) throw;
    throw RuntimeError(e.what());
  }
}

/// argv of a worker for the request file `path`.
std::vector<std::string> workerArgv(const IsolationOptions& options, const std::string& path) {
  std::vector<std::string> argv = options.workerCommand;
  argv.push_back(path);
  return argv;
}

/// What the items a worker left undone become: RUN_ERROR with the worker's error record, else
/// TIMEOUT or CRASH with how it ended and the last line of its stderr.
std::pair<Status, std::string> workerFailure(const ChildExit& exit, bool reachedItems,
                                             const std::string& workerError, double timeout) {
  if (!workerError.empty()) return {Status::kRunError, workerError};
  const std::string detail = lastLine(exit.stderrTail);
  const Status status = exit.kind == ChildExit::Kind::kTimedOut ? Status::kTimeout : Status::kCrash;
  return {status, std::string(reachedItems ? "" : "while building: ") + "worker " +
                      exit.describe(timeout) + (detail.empty() ? "" : ": " + detail)};
}

/// The devices of a `group` record's list ("0,2").
std::vector<size_t> deviceList(const std::string& field) {
  std::vector<size_t> devices;
  for (const std::string& device : data::splitText(field, ',')) {
    devices.push_back(toNumber(device, "device"));
  }
  return devices;
}

/// The kernels to mark when no worker named them: the requested ones, else those scanned from
/// the source, else "?".
std::vector<std::string> fallbackKernelNames(const MeasureRequest& request) {
  std::vector<std::string> names = request.kernels;
  if (names.empty()) names = scanKernelNames(request.source);
  if (names.empty()) names = {"?"};
  return names;
}

}  // namespace

void serveRequest(const MeasureRequest& request,
                  const std::function<void(const std::string& record)>& emit) {
  std::vector<DeviceInfo> devices;
  try {
    devices = listDevices();
  } catch (const RuntimeError& e) {
    emit(encodeRecord({"error", e.what()}));
    return;
  }
  if (request.listDevices) {
    for (const DeviceInfo& d : devices) emit(encodeDevice(d));
    emit("done");
    return;
  }
  const size_t deviceCount = devices.size();
  std::vector<std::unique_ptr<Driver>> drivers(deviceCount);
  std::vector<std::optional<Measurement>> setupFailure(deviceCount);  // for every item of a device
  std::vector<std::string> builtKernels;
  bool anyBuilt = false;
  for (size_t d = 0; d < deviceCount; ++d) {
    try {
      drivers[d] = std::make_unique<Driver>(static_cast<int>(d));
      BuildResult build = drivers[d]->build(request.source, request.buildFlags);
      if (!build.ok) {
        setupFailure[d] = failed(Status::kBuildError, capped(build.log));
      } else if (!anyBuilt) {
        anyBuilt = true;
        builtKernels = build.kernels;
      }
      emit(encodeRecord({"build", std::to_string(d), build.ok ? "ok" : "error"}));
    } catch (const RuntimeError& e) {
      setupFailure[d] = failed(Status::kRunError, e.what());
      emit(encodeRecord({"build", std::to_string(d), "error"}));
    }
  }
  FactorCheck checkFactor(request, deviceCount);

  std::vector<std::string> kernels = request.kernels;
  if (kernels.empty()) kernels = anyBuilt ? builtKernels : scanKernelNames(request.source);
  std::vector<std::string> kernelRecord = {"kernels"};
  kernelRecord.insert(kernelRecord.end(), kernels.begin(), kernels.end());
  emit(encodeRecord(kernelRecord));

  const size_t gsizes = request.gsizes.size();
  for (size_t k = 0; k < kernels.size(); ++k) {
    for (size_t g = 0; g < gsizes; ++g) {
      std::vector<Measurement> group(deviceCount);
      std::vector<Measurement*> measured;
      std::vector<size_t> measuredDevices;
      for (size_t d = 0; d < deviceCount; ++d) {
        const size_t item = (k * gsizes + g) * deviceCount + d;
        if (item < request.startItem) continue;
        if (setupFailure[d]) {
          group[d] = *setupFailure[d];
        } else {
          DriveOptions options;
          options.gsize = request.gsizes[g];
          options.wgsize = request.wgsize;
          options.runs = request.runs;
          options.seed = request.seed;
          options.guardBytes = request.guardBytes;
          options.coarsening = request.coarsening;
          group[d] = drivers[d]->measure(kernels[k], options);
          checkFactor(d, kernels[k], options, group[d]);
        }
        emit(encodeMeasurement(item, group[d]));
        measured.push_back(&group[d]);
        measuredDevices.push_back(d);
      }
      if (measured.empty()) continue;
      checkDevicesAgree(measured);
      std::string disagreeing;
      std::string message;
      for (size_t i = 0; i < measured.size(); ++i) {
        if (measured[i]->status != Status::kDevicesDisagree) continue;
        disagreeing += (disagreeing.empty() ? "" : ",") + std::to_string(measuredDevices[i]);
        message = measured[i]->message;
      }
      emit(encodeRecord({"group", std::to_string(k), std::to_string(g), disagreeing, message}));
    }
  }
  emit("done");
}

std::vector<DeviceInfo> listDevicesIsolated(const IsolationOptions& options) {
  MeasureRequest request;
  request.listDevices = true;
  RequestFile file(encodeRequest(request));
  const std::vector<std::string> argv = workerArgv(options, file.path);
  std::vector<DeviceInfo> devices;
  std::string error;
  bool done = false;
  const ChildExit exit = runWorker(argv, options.timeoutSeconds, [&](const std::string& line) {
    const std::vector<std::string> f = decodeRecord(line);
    if (f[0] == "device") devices.push_back(decodeDevice(f));
    if (f[0] == "error" && f.size() > 1) error = f[1];
    if (f[0] == "done") done = true;
  });
  if (!error.empty()) throw RuntimeError(error);
  if (!done) {
    const std::string detail = lastLine(exit.stderrTail);
    throw RuntimeError(
        "listing the OpenCL devices failed: " + exit.describe(options.timeoutSeconds) +
        (detail.empty() ? "" : ": " + detail));
  }
  return devices;
}

void measureIsolated(const MeasureRequest& request, size_t deviceCount,
                     const IsolationOptions& options,
                     const std::function<void(const KernelResult&)>& onResult) {
  const size_t gsizes = request.gsizes.size();
  if (deviceCount == 0 || gsizes == 0) return;
  std::vector<std::string> kernels;
  bool kernelsKnown = false;
  std::vector<std::optional<Measurement>> results;
  size_t nextItem = 0;
  size_t nextGroup = 0;  // groups (kernel, gsize) reported so far
  int earlyDeaths = 0;

  auto total = [&] { return kernels.size() * gsizes * deviceCount; };
  auto setKernels = [&](std::vector<std::string> names) {
    kernels = std::move(names);
    kernelsKnown = true;
    results.assign(total(), std::nullopt);
  };
  // Reports every leading group whose device results are all present.
  auto flush = [&](const std::vector<size_t>& disagreeing, const std::string& message,
                   size_t groupOfDisagreement) {
    while (nextGroup < kernels.size() * gsizes) {
      const size_t base = nextGroup * deviceCount;
      bool complete = true;
      for (size_t d = 0; d < deviceCount; ++d) complete = complete && results[base + d].has_value();
      if (!complete) return;
      KernelResult result;
      result.kernel = kernels[nextGroup / gsizes];
      result.gsize = request.gsizes[nextGroup % gsizes];
      for (size_t d = 0; d < deviceCount; ++d) result.devices.push_back(*results[base + d]);
      if (nextGroup == groupOfDisagreement) {
        for (size_t d : disagreeing) {
          if (d >= deviceCount) continue;
          Measurement& m = result.devices[d];
          m.failedChecks.push_back(Status::kDevicesDisagree);
          m.status = worstStatus(m.failedChecks);
          m.message += (m.message.empty() ? "" : "; ") + message;
        }
      }
      ++nextGroup;
      onResult(result);
    }
  };
  const size_t noGroup = static_cast<size_t>(-1);

  while (!kernelsKnown || nextItem < total()) {
    MeasureRequest part = request;
    part.startItem = nextItem;
    part.listDevices = false;
    RequestFile file(encodeRequest(part));
    const std::vector<std::string> argv = workerArgv(options, file.path);
    bool done = false;
    bool reachedItems = false;  // this worker built the source and named the kernels
    std::string workerError;
    const ChildExit exit = runWorker(argv, options.timeoutSeconds, [&](const std::string& line) {
      const std::vector<std::string> f = decodeRecord(line);
      const std::string& kind = f[0];
      if (kind == "kernels") {
        reachedItems = true;
        if (!kernelsKnown) setKernels(std::vector<std::string>(f.begin() + 1, f.end()));
      } else if (kind == "result" && kernelsKnown) {
        const size_t item = toNumber(f.size() > 1 ? f[1] : "", "item");
        if (item >= results.size()) throw RuntimeError("worker protocol: item out of range");
        results[item] = decodeMeasurement(f);
        nextItem = item + 1;
      } else if (kind == "group" && f.size() == 5 && kernelsKnown) {
        const size_t group = toNumber(f[1], "kernel") * gsizes + toNumber(f[2], "gsize");
        flush(deviceList(f[3]), f[4], group);
      } else if (kind == "error" && f.size() > 1) {
        workerError = f[1];
      } else if (kind == "done") {
        done = true;
      }
    });
    if (done && workerError.empty() && kernelsKnown) {
      flush({}, "", noGroup);
      if (nextItem >= total()) break;
    }
    // The worker hung, died, or could not open OpenCL: mark what it was doing and go on.
    const auto [status, message] =
        workerFailure(exit, reachedItems, workerError, options.timeoutSeconds);
    if (!kernelsKnown) {
      setKernels(fallbackKernelNames(request));
      earlyDeaths = kMaxEarlyDeaths;  // nothing was learnt: do not retry
    }
    if (!reachedItems) ++earlyDeaths;
    const bool giveUp = earlyDeaths >= kMaxEarlyDeaths || !workerError.empty();
    const size_t last = giveUp ? total() : std::min(nextItem + 1, total());
    for (size_t item = nextItem; item < last; ++item) {
      results[item] =
          failed(status, item == nextItem || !giveUp ? message : message + " (not retried)");
    }
    nextItem = last;
    flush({}, "", noGroup);
  }
}

}  // namespace deeptune::runtime
