// What `measure` runs and how its rows are named: one job per source (a .cl file, or each
// distinct src of a CSV), the benchmark names of a job's rows, and what a resumed run still lacks.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace deeptune::runtime {

/// One source to measure and the names its rows are reported under.
struct MeasureJob {
  std::string label;  ///< for progress lines
  std::string source;
  std::vector<std::string> kernels;  ///< empty: every kernel
  std::string file;                  ///< .cl input: benchmark = file:kernel, src = source
  std::vector<std::string> names;    ///< CSV input: benchmark names (src left empty)
  bool singleKernel = true;  ///< CSV input: the source has at most one kernel (scanned once)
  std::string buildFlags;    ///< the host's -D/-I for clBuildProgram (MeasureRequest::buildFlags)

  /// The kernels its rows will name: `kernels`, or every kernel scanned from the source.
  std::vector<std::string> kernelNames() const;
  /// The benchmark names of `kernel`'s rows: FILE:KERNEL for files; a CSV source's names, with
  /// ":KERNEL" when the source has several kernels (the paper's extracts have one).
  std::vector<std::string> benchmarksOf(const std::string& kernel) const;
};

/// Throws data::DataError `FILE:1:1: no kernel named 'KERNEL'; kernels: ...` unless `names`
/// (the kernels `file` defines) holds `kernel`.
void requireKernelNamed(const std::vector<std::string>& names, const std::string& kernel,
                        const std::string& file);

/// The job of a .cl file: every kernel, or only `kernel` (non-empty). Throws data::DataError
/// at FILE:1:1 when the file defines kernels but none named `kernel`.
MeasureJob fileJob(const std::string& file, std::string source, const std::string& kernel);

/// The jobs of a CSV with `benchmark` and `src` columns: one per distinct source, reported under
/// every name that has it. Rows that cannot be measured (an empty src, a name already given
/// another source) are not dropped silently: each becomes a line of `notMeasured`
/// ("FILE:LINE: benchmark 'NAME': why"). Throws data::DataError on a bad CSV or an empty name.
std::vector<MeasureJob> csvJobs(const std::string& path, std::vector<std::string>& notMeasured);

/// The jobs of a measure run's inputs, in order: each file's (fileJob(), its text from
/// `readSource`), then those of the CSV `csv` when it is not empty (csvJobs(), its unmeasured rows
/// in `notMeasured`). Throws what those and `readSource` throw.
std::vector<MeasureJob> inputJobs(
    const std::vector<std::string>& files, const std::string& kernel, const std::string& csv,
    const std::function<std::string(const std::string& file)>& readSource,
    std::vector<std::string>& notMeasured);

/// Whether a row (benchmark, gsize) is already written; what a resumed run skips.
using RowDone = std::function<bool(const std::string& benchmark, size_t gsize)>;

/// The sizes of `gsizes` for which some row of `job` is not done yet, in order.
std::vector<size_t> sizesToMeasure(const MeasureJob& job, const std::vector<size_t>& gsizes,
                                   const RowDone& done);

/// The benchmark names of `kernel` at `gsize` not done yet.
std::vector<std::string> benchmarksToWrite(const MeasureJob& job, const std::string& kernel,
                                           size_t gsize, const RowDone& done);

}  // namespace deeptune::runtime
