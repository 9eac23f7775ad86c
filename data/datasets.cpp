// Typed readers for the paper's data sets, built on the CSV reader's located errors.
#include "data/datasets.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "data/csv_reader.hpp"

namespace deeptune::data {
namespace {

/// Field (row, col) as an int in [min, INT_MAX].
int intField(const CsvTable& t, size_t row, size_t col, int min = 0) {
  const long long value = t.intAt(row, col);
  if (value < min || value > std::numeric_limits<int>::max()) {
    throw t.errorAt(row, col,
                    "expected an integer >= " + std::to_string(min) + ", found " +
                        quoteValue(t.rows[row][col]));
  }
  return static_cast<int>(value);
}

/// Field (row, col) as a number > 0 (runtimes) or >= 0 (sizes).
double numberField(const CsvTable& t, size_t row, size_t col, bool strictlyPositive) {
  const double value = t.doubleAt(row, col);
  if (strictlyPositive ? !(value > 0) : !(value >= 0)) {
    throw t.errorAt(row, col,
                    std::string("expected a number ") + (strictlyPositive ? "> 0" : ">= 0") +
                        ", found " + quoteValue(t.rows[row][col]));
  }
  return value;
}

/// Field (row, col) as a positive integer that may be written as a real ("16.0").
int integralField(const CsvTable& t, size_t row, size_t col) {
  const double value = t.doubleAt(row, col);
  if (value != std::floor(value) || value < 1 || value > std::numeric_limits<int>::max()) {
    throw t.errorAt(row, col,
                    "expected a positive whole number, found " + quoteValue(t.rows[row][col]));
  }
  return static_cast<int>(value);
}

/// The device-mapping row index column: unnamed in the paper's files, "index" elsewhere.
size_t indexColumn(const CsvTable& t) {
  if (auto col = t.findColumn("")) return *col;
  if (auto col = t.findColumn("index")) return *col;
  throw DataError(t.source, t.headerLine, 1,
                  "missing the row index column (an unnamed first column or 'index')");
}

}  // namespace

std::vector<DevmapRow> readDevmapCsv(const std::string& path) { return devmapRows(readCsv(path)); }

std::vector<DevmapRow> devmapRows(const CsvTable& t) {
  const size_t cIndex = indexColumn(t);
  const size_t cBenchmark = t.column("benchmark"), cDataset = t.column("dataset");
  const size_t cComp = t.column("comp"), cRational = t.column("rational"), cMem = t.column("mem");
  const size_t cLocalmem = t.column("localmem"), cCoalesced = t.column("coalesced");
  const size_t cAtomic = t.column("atomic"), cTransfer = t.column("transfer");
  const size_t cWgsize = t.column("wgsize"), cOracle = t.column("oracle");
  const size_t cCpu = t.column("runtime_cpu"), cGpu = t.column("runtime_gpu");
  const size_t cSrc = t.column("src");

  std::vector<DevmapRow> out;
  out.reserve(t.rows.size());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    DevmapRow d;
    d.index = intField(t, r, cIndex);
    d.benchmark = row[cBenchmark];
    d.dataset = row[cDataset];
    d.comp = intField(t, r, cComp);
    d.rational = intField(t, r, cRational);
    d.mem = intField(t, r, cMem);
    d.localmem = intField(t, r, cLocalmem);
    d.coalesced = intField(t, r, cCoalesced);
    d.atomic = intField(t, r, cAtomic);
    d.transfer = numberField(t, r, cTransfer, false);
    d.wgsize = intField(t, r, cWgsize);
    d.oracle = row[cOracle];
    if (d.oracle != "CPU" && d.oracle != "GPU") {
      throw t.errorAt(r, cOracle, "expected CPU or GPU, found " + quoteValue(d.oracle));
    }
    d.runtimeCpu = numberField(t, r, cCpu, true);
    d.runtimeGpu = numberField(t, r, cGpu, true);
    // The label is the faster device: a row that says otherwise would change every metric
    // silently (the paper's files have none; a tie, none there either, allows both labels).
    if (d.runtimeCpu != d.runtimeGpu && d.oracle != (d.runtimeCpu < d.runtimeGpu ? "CPU" : "GPU")) {
      throw t.errorAt(r, cOracle,
                      d.oracle + " contradicts the row's runtimes (runtime_cpu " + row[cCpu] +
                          ", runtime_gpu " + row[cGpu] + ": the faster is " +
                          (d.oracle == "CPU" ? "GPU" : "CPU") + ")");
    }
    d.src = row[cSrc];
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<FoldRow> readFoldsCsv(const std::string& path) {
  const CsvTable t = readCsv(path);
  const size_t cIndex = indexColumn(t);
  const size_t cBenchmark = t.column("benchmark"), cDataset = t.column("dataset");
  const size_t cFold = t.column("fold");
  std::vector<FoldRow> out;
  out.reserve(t.rows.size());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    out.push_back({intField(t, r, cIndex), t.rows[r][cBenchmark], t.rows[r][cDataset],
                   intField(t, r, cFold)});
  }
  return out;
}

std::vector<CoarseningRow> readCoarseningRuntimesCsv(const std::string& path) {
  const CsvTable t = readCsv(path);
  const size_t cKernel = t.column("kernel"), cCf = t.column("cf"), cSrc = t.column("src");
  std::vector<size_t> cPca;
  for (int i = 1; i <= 7; ++i) {
    if (const auto c = t.findColumn("PCA" + std::to_string(i))) cPca.push_back(*c);
  }
  if (!cPca.empty() && cPca.size() != 7) {
    throw DataError(t.source, t.headerLine, 1, "PCA1..PCA7: give all seven columns or none");
  }
  std::vector<std::pair<std::string, size_t>> cRuntime;  // device, column
  const std::string prefix = "runtime_";
  for (size_t c = 0; c < t.header.size(); ++c) {
    const std::string& name = t.header[c];
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) {
      cRuntime.emplace_back(name.substr(prefix.size()), c);
    }
  }
  if (cRuntime.empty()) {
    throw DataError(t.source, t.headerLine, 1, "no runtime_<device> column");
  }

  std::vector<CoarseningRow> out;
  out.reserve(t.rows.size());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    CoarseningRow c;
    c.kernel = t.rows[r][cKernel];
    if (c.kernel.empty()) throw t.errorAt(r, cKernel, "empty kernel name");
    c.cf = integralField(t, r, cCf);
    if (!cPca.empty()) {
      c.pca.emplace();
      for (size_t i = 0; i < cPca.size(); ++i) (*c.pca)[i] = t.doubleAt(r, cPca[i]);
    }
    for (const auto& [device, column] : cRuntime) {
      if (t.rows[r][column].empty()) continue;  // not measured (e.g. nbody cf 16 on NVIDIA)
      c.runtimeNs[device] = numberField(t, r, column, true);
    }
    c.src = t.rows[r][cSrc];
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<CoarseningOracle> readCoarseningOraclesCsv(const std::string& path) {
  const CsvTable t = readCsv(path);
  const size_t cKernel = t.column("kernel");
  std::vector<CoarseningOracle> out;
  out.reserve(t.rows.size());
  std::array<size_t, kCoarseningGpus.size()> cCf{}, cRuntime{};
  for (size_t g = 0; g < kCoarseningGpus.size(); ++g) {
    cCf[g] = t.column("cf_" + std::string(kCoarseningGpus[g]));
    cRuntime[g] = t.column("runtime_" + std::string(kCoarseningGpus[g]));
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    CoarseningOracle o;
    o.kernel = t.rows[r][cKernel];
    for (size_t g = 0; g < kCoarseningGpus.size(); ++g) {
      const std::string gpu(kCoarseningGpus[g]);
      o.bestCf[gpu] = integralField(t, r, cCf[g]);
      o.bestRuntimeNs[gpu] = numberField(t, r, cRuntime[g], true);
    }
    out.push_back(std::move(o));
  }
  return out;
}

BenchmarkName parseBenchmarkName(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t dash = name.find('-', start);
    parts.push_back(name.substr(start, dash == std::string::npos ? dash : dash - start));
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  size_t version = 0;
  while (version < parts.size() &&
         !(!parts[version].empty() && parts[version][0] >= '0' && parts[version][0] <= '9')) {
    ++version;
  }
  if (version == 0 || version + 1 >= parts.size()) return {"", "", "", name};
  auto join = [&](size_t from, size_t to) {
    std::string out;
    for (size_t i = from; i < to; ++i) out += (i > from ? "-" : "") + parts[i];
    return out;
  };
  return {join(0, version), parts[version], join(version + 1, parts.size() - 1), parts.back()};
}

std::string suiteDisplayName(const std::string& suite) {
  static const std::map<std::string, std::string> kNames = {{"amd-app-sdk", "AMD SDK"},
                                                            {"npb", "NPB"},
                                                            {"nvidia", "NVIDIA SDK"},
                                                            {"parboil", "Parboil"},
                                                            {"polybench-gpu", "PolyBench"},
                                                            {"rodinia", "Rodinia"},
                                                            {"shoc", "SHOC"}};
  const auto it = kNames.find(suite);
  return it == kNames.end() ? suite : it->second;
}

std::string defaultPaperDataDir() {
  const char* env = std::getenv("DEEPTUNE_DATA");
  return env && *env ? env : "../shared/data/deeptune";
}

}  // namespace deeptune::data
