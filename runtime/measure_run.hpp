// One `measure` run: the rows each job still lacks, measured in isolated workers and appended to
// the resumable CSV as they finish, with what each job did for the progress lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/isolation.hpp"
#include "runtime/measure_jobs.hpp"

namespace deeptune::data {
class ResumableCsv;
}

namespace deeptune::runtime {

/// The launch every job of a run shares (MeasureRequest's fields of the same names).
struct MeasureLaunch {
  std::vector<size_t> gsizes;
  size_t wgsize = 0;  ///< 0: the driver's default
  int runs = 6;
  uint64_t seed = 204;
  size_t guardBytes = DriveOptions::kDefaultGuardBytes;
};

/// Device results of a run by status name: one per device of each row written.
using StatusCounts = std::map<std::string, int>;

/// "NAME COUNT, NAME COUNT" in name order ("" for none).
std::string tallyText(const StatusCounts& counts);

/// What one job did, for a progress line.
struct JobDone {
  size_t index = 0;             ///< the job's index in the run
  bool alreadyWritten = false;  ///< every row of it was in the output: nothing was measured
  std::string summary;          ///< "KERNEL@GSIZE STATUS/STATUS, ..." of what it measured
};

/// What a run wrote.
struct MeasureTotals {
  size_t rows = 0;
  StatusCounts counts;
};

/// The last line of `measure`: "measure: N rows in 3m02s to OUT (device results: ...)", with ",
/// beside K rows of an earlier run" when OUT was resumed (`keptRows`), and how many input rows
/// could not be measured when there were any. The counts and results are this run's.
std::string measureSummaryLine(const MeasureTotals& totals, const std::string& duration,
                               const std::string& output, size_t notMeasured, size_t keptRows = 0);

/// Measures, job by job, the rows (benchmark, gsize) of `jobs` that `writer` does not hold yet
/// (each job in isolated workers with its own buildFlags, runtime::measureIsolated) and appends
/// each as measureCsvRow() as soon as its kernel is done on every device (src: the job's source
/// for a file, empty for a CSV job). Calls `onJob` after each job. Throws what measureIsolated
/// and the writer throw.
MeasureTotals measureJobs(const std::vector<MeasureJob>& jobs, const MeasureLaunch& launch,
                          const std::vector<DeviceInfo>& devices, const IsolationOptions& isolation,
                          data::ResumableCsv& writer,
                          const std::function<void(const JobDone&)>& onJob);

}  // namespace deeptune::runtime
