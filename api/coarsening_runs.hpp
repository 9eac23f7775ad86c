// One kernel run at each thread-coarsening factor on every device (measure and validate share it).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "data/source_options.hpp"
#include "runtime/coarsening_csv.hpp"
#include "runtime/isolation.hpp"
#include "runtime/measure_run.hpp"
#include "runtime/verdict.hpp"

namespace deeptune::data {
class ResumableCsv;
}

namespace deeptune::rewriter {
class Normalizer;
}

namespace deeptune::api {

/// The launch every factor shares (sizes are the un-coarsened kernel's).
struct FactorLaunch {
  size_t gsize = 0;
  size_t wgsize = 0;  ///< 0: the driver's default, min(S, 256)
  int runs = 6;
  uint64_t seed = 204;
  std::string buildFlags;  ///< the host's -D/-I for clBuildProgram
};

/// Coarsens `kernel` of `source` by each factor (1 = as it is) and runs every variant in
/// isolated workers (runtime::measureIsolated), each coarsened one checked against factor 1
/// (FACTOR_DISAGREES). Factors for which `wanted` is false are skipped. Returns nothing when the
/// transform refuses every factor above 1 (the refusal in `refusal`).
std::vector<runtime::FactorRun> runFactors(
    const rewriter::Normalizer& normalizer, const std::string& source, const std::string& file,
    const std::string& kernel, const std::vector<size_t>& factors,
    const data::SourceOptions& sourceOptions, const FactorLaunch& launch, size_t deviceCount,
    const runtime::IsolationOptions& isolation, const std::function<bool(size_t)>& wanted,
    std::string& refusal);

/// The kernels of `source` (read from `file`) to label: every kernel the rewriter finds in it,
/// or only `kernel` when it is not empty (data::DataError at FILE:1:1 when the file defines
/// kernels but none of that name). Throws the rewriter's errors.
std::vector<std::string> kernelsToLabel(const rewriter::Normalizer& normalizer,
                                        const std::string& source, const std::string& file,
                                        const std::string& kernel,
                                        const data::SourceOptions& sourceOptions);

/// A kernel source file of a labelling run: its text and the host's build flags for it.
struct LabelFile {
  std::string source;
  std::string buildFlags;
};

/// What `measure --task coarsening` labels: every kernel at every factor, one launch.
struct LabelRun {
  std::vector<runtime::FileKernel> kernels;
  std::vector<std::string> names;          ///< the `kernel` column of each (uniqueKernelNames)
  std::map<std::string, LabelFile> files;  ///< by file name: every file of `kernels`
  std::vector<size_t> factors;             ///< 1 among them
  data::SourceOptions sourceOptions;
  FactorLaunch launch;  ///< buildFlags unused: each file's own
};

/// What labelling one kernel did, for a progress line.
struct LabelDone {
  size_t index = 0;     ///< the kernel's index in LabelRun::kernels
  std::string summary;  ///< "FACTOR:STATUS ..." (first device) of its rows written; "" for none
};

/// What a labelling run wrote.
struct LabelTotals {
  size_t rows = 0;
  runtime::StatusCounts counts;      ///< device statuses of the rows written
  std::vector<std::string> refused;  ///< "NAME: why" of each kernel the transform refused

  /// The last line of `measure --task coarsening` for `kernels` kernels: "measure: N rows (K
  /// kernels) in 3m02s to OUT (device results: ...); R kernels not coarsenable".
  std::string summaryLine(size_t kernels, const std::string& duration,
                          const std::string& output) const;
};

/// Labels `run` kernel by kernel: the factors whose row (name, factor) `writer` lacks, run with
/// runFactors() and appended as runtime::coarseningCsvRow() (src: the normalized un-coarsened
/// kernel); calls `onKernel` after each kernel the transform did not refuse at every factor
/// above 1 (those are only listed in LabelTotals::refused). Throws the rewriter's errors
/// and what the writer and the isolated runs throw.
LabelTotals labelFactors(const rewriter::Normalizer& normalizer, const LabelRun& run,
                         const std::vector<runtime::DeviceInfo>& devices,
                         const runtime::IsolationOptions& isolation, data::ResumableCsv& writer,
                         const std::function<void(const LabelDone&)>& onKernel);

}  // namespace deeptune::api
