// Typed readers for the paper's data sets (CGO'17 device mapping, folds, PACT'14 coarsening).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace deeptune::data {

/// One row of cgo17-{amd,nvidia}.csv: a kernel (benchmark) run at one data size (dataset).
struct DevmapRow {
  int index;              ///< the unnamed first column (row number)
  std::string benchmark;  ///< suite-version-program-kernel, see parseBenchmarkName()
  std::string dataset;
  int comp, rational, mem, localmem, coalesced, atomic;  ///< Grewe et al. static counts
  double transfer;                                       ///< bytes
  int wgsize;
  std::string oracle;             ///< "CPU" or "GPU"
  double runtimeCpu, runtimeGpu;  ///< ms, kernel + the program's transfers
  std::string src;                ///< kernel normalized by the paper's rewriter
  /// The two devices' timings are within their noise (measured data only; the paper's rows
  /// never are): either device counts as right in the metrics.
  bool tie = false;
};

/// Reads cgo17-{amd,nvidia}.csv (the `seq` column is ignored). Throws DataError (file:line:col)
/// for a missing column, a bad number, a negative count or size, a runtime <= 0, an oracle that
/// is not CPU/GPU, or an oracle that is not the faster device of its row's runtime_cpu and
/// runtime_gpu (equal runtimes allow either).
std::vector<DevmapRow> readDevmapCsv(const std::string& path);

struct CsvTable;
/// readDevmapCsv() of a table already read.
std::vector<DevmapRow> devmapRows(const CsvTable& table);

/// One row of folds-{amd,nvidia}.csv: the cross-validation fold of one device-mapping row.
struct FoldRow {
  int index;  ///< row index into the matching cgo17 file
  std::string benchmark, dataset;
  int fold;  ///< 0-based, >= 0
};

/// Reads folds-{amd,nvidia}.csv. Throws DataError as readDevmapCsv() does.
std::vector<FoldRow> readFoldsCsv(const std::string& path);

/// The four GPUs of the PACT'14 thread-coarsening data, in column order.
inline constexpr std::array<std::string_view, 4> kCoarseningGpus = {"Fermi", "Kepler", "Cypress",
                                                                    "Tahiti"};

/// One row of pact-2014-runtimes.csv: a kernel at one coarsening factor.
struct CoarseningRow {
  std::string kernel;
  int cf;  ///< coarsening factor (1, 2, 4, 8, 16 or 32)
  /// PCA1..PCA7 (Magni et al. features); absent in data without those columns (`measure`'s).
  std::optional<std::array<double, 7>> pca;
  std::map<std::string, double> runtimeNs;  ///< device -> ns; a device with an empty cell
                                            ///< (not measured) has no entry
  std::string src;                          ///< the un-coarsened kernel source (see errata)
};

/// Reads a coarsening runtimes CSV: pact-2014-runtimes.csv or one `measure --task coarsening`
/// wrote. Columns `kernel`, `cf`, `src` and at least one `runtime_<device>` (every such column
/// is a device); PCA1..PCA7 all or none; others (`seq`, `status_<device>`) are ignored. Throws
/// DataError (file:line:col).
std::vector<CoarseningRow> readCoarseningRuntimesCsv(const std::string& path);

/// One row of pact-2014-oracles.csv: the best factor and its runtime per GPU for one kernel.
struct CoarseningOracle {
  std::string kernel;
  std::map<std::string, int> bestCf;            ///< GPU name -> factor (file writes "16.0")
  std::map<std::string, double> bestRuntimeNs;  ///< GPU name -> ns
};

/// Reads pact-2014-oracles.csv. Throws DataError (file:line:col), e.g. for a non-integral factor.
std::vector<CoarseningOracle> readCoarseningOraclesCsv(const std::string& path);

/// The parts of a paper benchmark name such as amd-app-sdk-3.0-ScanLargeArrays-blockAddition.
struct BenchmarkName {
  std::string suite, version, program, kernel;
};

/// Splits name on '-': the first component starting with a digit is the version, those before it
/// the suite, the last one the kernel, those between the program (joined by '-'). A name that does
/// not fit (no such component, it is first, or nothing follows it) gives empty suite, version and
/// program and kernel = name. Never throws.
BenchmarkName parseBenchmarkName(const std::string& name);

/// The paper's name for a suite: amd-app-sdk -> "AMD SDK", npb -> "NPB", nvidia -> "NVIDIA SDK",
/// parboil -> "Parboil", polybench-gpu -> "PolyBench", rodinia -> "Rodinia", shoc -> "SHOC";
/// any other suite is returned unchanged.
std::string suiteDisplayName(const std::string& suite);

/// Folder of the paper's data: $DEEPTUNE_DATA if set and not empty, else
/// "../shared/data/deeptune" (relative to the working directory).
std::string defaultPaperDataDir();

}  // namespace deeptune::data
