// What `measure` runs and how its rows are named: one job per source (a .cl file, or each
// distinct src of a CSV), the benchmark names of a job's rows, and what a resumed run still lacks.
#include "runtime/measure_jobs.hpp"

#include <algorithm>
#include <map>

#include "data/csv_reader.hpp"
#include "data/data_error.hpp"
#include "runtime/isolation.hpp"

namespace deeptune::runtime {

std::vector<std::string> MeasureJob::kernelNames() const {
  return kernels.empty() ? scanKernelNames(source) : kernels;
}

std::vector<std::string> MeasureJob::benchmarksOf(const std::string& kernel) const {
  if (!file.empty()) return {file + ":" + kernel};
  std::vector<std::string> benchmarks;
  for (const std::string& name : names) {
    benchmarks.push_back(singleKernel ? name : name + ":" + kernel);
  }
  return benchmarks;
}

void requireKernelNamed(const std::vector<std::string>& names, const std::string& kernel,
                        const std::string& file) {
  if (std::find(names.begin(), names.end(), kernel) != names.end()) return;
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  throw data::DataError(file, 1, 1, "no kernel named '" + kernel + "'; kernels: " + list);
}

MeasureJob fileJob(const std::string& file, std::string source, const std::string& kernel) {
  MeasureJob job{file, std::move(source), {}, file, {}};
  if (kernel.empty()) return job;
  // A name the file does not define is bad input, as in predict, rewrite and validate.
  const std::vector<std::string> names = scanKernelNames(job.source);
  if (!names.empty()) requireKernelNamed(names, kernel, file);
  job.kernels = {kernel};
  return job;
}

std::vector<MeasureJob> csvJobs(const std::string& path, std::vector<std::string>& notMeasured) {
  const data::CsvTable table = data::readCsv(path);
  const size_t benchmark = table.column("benchmark");
  const size_t src = table.column("src");
  std::vector<MeasureJob> jobs;
  std::map<std::string, size_t> jobOfSource;
  std::map<std::string, size_t> rowOfName;  // the row whose source a name measures
  for (size_t row = 0; row < table.rows.size(); ++row) {
    const std::string& name = table.rows[row][benchmark];
    if (name.empty()) throw table.errorAt(row, benchmark, "empty benchmark name");
    const std::string where = path + ":" + std::to_string(table.rowLines[row]) + ": benchmark " +
                              data::quoteValue(name) + ": ";
    const std::string& source = table.rows[row][src];
    if (source.empty()) {
      notMeasured.push_back(where + "empty src, not measured");
      continue;
    }
    if (const auto seen = rowOfName.find(name); seen != rowOfName.end()) {
      if (table.rows[seen->second][src] != source) {
        notMeasured.push_back(where + "a second source under a name already measured (line " +
                              std::to_string(table.rowLines[seen->second]) + "), not measured");
      }
      continue;  // the same name and source again (another dataset): measured once
    }
    rowOfName.emplace(name, row);
    auto found = jobOfSource.find(source);
    if (found == jobOfSource.end()) {
      found = jobOfSource.emplace(source, jobs.size()).first;
      jobs.push_back(MeasureJob{name, source, {}, "", {}, scanKernelNames(source).size() <= 1});
    }
    jobs[found->second].names.push_back(name);
  }
  return jobs;
}

std::vector<size_t> sizesToMeasure(const MeasureJob& job, const std::vector<size_t>& gsizes,
                                   const RowDone& done) {
  const std::vector<std::string> kernels = job.kernelNames();
  std::vector<size_t> missing;
  for (size_t gsize : gsizes) {
    // No kernel found by the scan: measure, and let the worker say what the program holds.
    bool lacking = kernels.empty();
    for (const std::string& kernel : kernels) {
      lacking = lacking || !benchmarksToWrite(job, kernel, gsize, done).empty();
    }
    if (lacking) missing.push_back(gsize);
  }
  return missing;
}

std::vector<std::string> benchmarksToWrite(const MeasureJob& job, const std::string& kernel,
                                           size_t gsize, const RowDone& done) {
  std::vector<std::string> benchmarks;
  for (const std::string& benchmark : job.benchmarksOf(kernel)) {
    if (!done(benchmark, gsize)) benchmarks.push_back(benchmark);
  }
  return benchmarks;
}

std::vector<MeasureJob> inputJobs(
    const std::vector<std::string>& files, const std::string& kernel, const std::string& csv,
    const std::function<std::string(const std::string& file)>& readSource,
    std::vector<std::string>& notMeasured) {
  std::vector<MeasureJob> jobs;
  for (const std::string& file : files) jobs.push_back(fileJob(file, readSource(file), kernel));
  if (csv.empty()) return jobs;
  for (MeasureJob& job : csvJobs(csv, notMeasured)) jobs.push_back(std::move(job));
  return jobs;
}

}  // namespace deeptune::runtime
