// One `measure` run: the rows each job still lacks, measured in isolated workers and appended to
// the resumable CSV as they finish, with what each job did for the progress lines.
#include "runtime/measure_run.hpp"

#include "data/resumable_csv.hpp"
#include "runtime/measure_csv.hpp"
#include "runtime/status.hpp"

namespace deeptune::runtime {

std::string tallyText(const StatusCounts& counts) {
  std::string tally;
  for (const auto& [name, count] : counts) {
    tally += (tally.empty() ? "" : ", ") + name + " " + std::to_string(count);
  }
  return tally;
}

MeasureTotals measureJobs(const std::vector<MeasureJob>& jobs, const MeasureLaunch& launch,
                          const std::vector<DeviceInfo>& devices, const IsolationOptions& isolation,
                          data::ResumableCsv& writer,
                          const std::function<void(const JobDone&)>& onJob) {
  MeasureTotals totals;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const MeasureJob& job = jobs[j];
    const RowDone done = [&](const std::string& benchmark, size_t gsize) {
      return writer.has(benchmark, std::to_string(gsize));
    };
    MeasureRequest request;
    request.source = job.source;
    request.buildFlags = job.buildFlags;
    request.kernels = job.kernels;
    request.gsizes = sizesToMeasure(job, launch.gsizes, done);  // resuming: what rows lack
    JobDone report;
    report.index = j;
    if (request.gsizes.empty()) {
      report.alreadyWritten = true;
      onJob(report);
      continue;
    }
    request.wgsize = launch.wgsize;
    request.runs = launch.runs;
    request.seed = launch.seed;
    request.guardBytes = launch.guardBytes;
    measureIsolated(request, devices.size(), isolation, [&](const KernelResult& result) {
      const std::vector<std::string> benchmarks =
          benchmarksToWrite(job, result.kernel, result.gsize, done);
      for (const std::string& benchmark : benchmarks) {
        writer.add(measureCsvRow(benchmark, result, devices, job.file.empty() ? "" : job.source));
        ++totals.rows;
      }
      std::string statuses;
      for (const Measurement& m : result.devices) {
        const std::string name = statusName(m.status);
        statuses += (statuses.empty() ? "" : "/") + name;
        totals.counts[name] += static_cast<int>(benchmarks.size());
      }
      report.summary += (report.summary.empty() ? "" : ", ") + result.kernel + "@" +
                        std::to_string(result.gsize) + " " + statuses;
    });
    onJob(report);
  }
  return totals;
}

std::string measureSummaryLine(const MeasureTotals& totals, const std::string& duration,
                               const std::string& output, size_t notMeasured, size_t keptRows) {
  const auto rows = [](size_t n, const char* noun) {
    return std::to_string(n) + noun + (n == 1 ? "" : "s");
  };
  return "measure: " + rows(totals.rows, keptRows > 0 ? " new row" : " row") + " in " + duration +
         " to " + output +
         (keptRows > 0 ? ", beside " + rows(keptRows, " row") + " of an earlier run"
                       : std::string()) +
         " (device results: " + tallyText(totals.counts) + ")" +
         (notMeasured == 0
              ? ""
              : "; " + std::to_string(notMeasured) + " input rows not measured (listed above)");
}

}  // namespace deeptune::runtime
