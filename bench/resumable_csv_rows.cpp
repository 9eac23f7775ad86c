// The per-row cost of `measure`'s CSV writer (data::ResumableCsv: one append + fdatasync per row)
// at 1k and 20k rows already in the file, against the former whole-file rewrite in one process.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench_common.hpp"
#include "data/csv_reader.hpp"
#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "data/resumable_csv.hpp"

namespace {

namespace dd = deeptune::data;
namespace fs = std::filesystem;
using deeptune::bench::Clock;
using deeptune::bench::msSince;

/// Milliseconds per added row: median and mean.
struct Timing {
  double median = 0, mean = 0;
};

/// What one size gives: each writer's time per added row, and the time to resume the file.
struct Result {
  size_t rows = 0;
  Timing append, rewrite, rewriteSynced;
  double resumeMs = 0;
};

Timing summarize(const std::vector<double>& times) {
  double sum = 0;
  for (double t : times) sum += t;
  return {deeptune::bench::percentile(times, 0.5), sum / static_cast<double>(times.size())};
}

/// Row `i` of the file: the sample's row `i % n`, its benchmark made unique (the writer's key).
std::vector<std::string> rowAt(const dd::CsvTable& sample, size_t i) {
  std::vector<std::string> row = sample.rows[i % sample.rows.size()];
  row[0] += "#" + std::to_string(i);
  return row;
}

/// Puts `path` on disk (fdatasync, or fsync and sync() for `everything`); throws on failure.
void syncFile(const std::string& path, bool everything) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const bool synced = fd >= 0 && (everything ? ::fsync(fd) : ::fdatasync(fd)) == 0;
  if (fd >= 0) ::close(fd);
  if (!synced) throw std::runtime_error(path + ": cannot sync");
  if (everything) ::sync();  // the dirty pages of the runs before must not weigh on this one
}

/// The former writer: after each row the whole file is rewritten atomically (a temporary
/// renamed over it), as ResumableCsv::add did until issue 27; with `synced`, also synced, for
/// the durability the new writer has. Returns the file's final text.
std::string rewriteRows(const dd::CsvTable& sample, const std::string& prefix, size_t rows,
                        size_t adds, const std::string& path, bool synced, Timing& timing) {
  std::string content = prefix;
  dd::writeFileAtomically(path, content);
  syncFile(path, true);
  std::vector<double> times;
  for (size_t i = 0; i < adds; ++i) {
    const std::vector<std::string> row = rowAt(sample, rows + i);
    const auto added = Clock::now();
    content += dd::csvRow(row);
    dd::writeFileAtomically(path, content);
    if (synced) syncFile(path, false);
    times.push_back(msSince(added));
  }
  timing = summarize(times);
  return content;
}

Result measureAt(const dd::CsvTable& sample, size_t rows, size_t adds, const fs::path& dir) {
  std::string prefix = dd::csvRow(sample.header);
  for (size_t i = 0; i < rows; ++i) prefix += dd::csvRow(rowAt(sample, i));
  Result result;
  result.rows = rows;

  // Now: resume the file (parse its rows), then append and sync each row.
  const std::string appended = (dir / "append.csv").string();
  dd::writeFileAtomically(appended, prefix);
  syncFile(appended, true);  // the first row's sync must not pay for writing the prefix
  std::vector<double> times;
  {
    const auto start = Clock::now();
    dd::ResumableCsv writer(appended, sample.header);
    result.resumeMs = msSince(start);
    for (size_t i = 0; i < adds; ++i) {
      const std::vector<std::string> row = rowAt(sample, rows + i);
      const auto added = Clock::now();
      writer.add(row);
      times.push_back(msSince(added));
    }
  }
  result.append = summarize(times);

  const std::string rewritten = (dir / "rewrite.csv").string();
  const std::string content =
      rewriteRows(sample, prefix, rows, adds, rewritten, false, result.rewrite);
  rewriteRows(sample, prefix, rows, adds, rewritten, true, result.rewriteSynced);
  if (dd::readFileBytes(appended, dd::kMaxCsvBytes) != content) {
    throw std::runtime_error("the two writers' files differ");
  }
  fs::remove(appended);
  fs::remove(rewritten);
  return result;
}

int usage(FILE* out, int code) {
  std::fprintf(
      out,
      "usage: bench_resumable_csv [--sample CSV] [--dir DIR] [--rows N[,N...]] [--adds K]\n"
      "  Per added row, ms: ResumableCsv (append + fdatasync) against the former whole-file\n"
      "  rewrite (writeFileAtomically of all rows after each), and that rewrite with an\n"
      "  fdatasync (the same durability), with N rows already in the file (default\n"
      "  1000,20000) and K rows added (default 200). Rows are those of --sample (default\n"
      "  data/measured/pocl-cpu-paper.csv, `measure`'s CSV of the paper kernels), cycled.\n"
      "  Files go to a scratch folder in DIR (default $TMPDIR or /tmp): its disk is measured.\n");
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  std::string samplePath =
      std::string(DEEPTUNE_BENCH_SOURCE_DIR) + "/data/measured/pocl-cpu-paper.csv";
  std::string folder = fs::temp_directory_path().string();
  std::vector<size_t> sizes = {1000, 20000};
  size_t adds = 200;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help") return usage(stdout, 0);
    if (i + 1 >= argc) return usage(stderr, 2);
    const std::string value = argv[++i];
    if (arg == "--sample") {
      samplePath = value;
    } else if (arg == "--dir") {
      folder = value;
    } else if (arg == "--adds") {
      adds = std::strtoull(value.c_str(), nullptr, 10);
    } else if (arg == "--rows") {
      sizes.clear();
      for (size_t at = 0; at <= value.size();) {
        const size_t comma = std::min(value.find(',', at), value.size());
        sizes.push_back(std::strtoull(value.substr(at, comma - at).c_str(), nullptr, 10));
        at = comma + 1;
      }
    } else {
      return usage(stderr, 2);
    }
  }
  if (adds == 0 || sizes.empty()) return usage(stderr, 2);
  try {
    const dd::CsvTable sample = dd::readCsv(samplePath);
    if (sample.rows.empty()) throw std::runtime_error(samplePath + ": no rows");
    const fs::path dir = fs::path(folder) / ("bench-resumable-csv-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    size_t bytes = 0;
    for (const auto& row : sample.rows) bytes += dd::csvRow(row).size();
    std::printf("rows of %s (%zu, %.0f bytes each on average), %zu added per size, in %s\n",
                samplePath.c_str(), sample.rows.size(),
                static_cast<double>(bytes) / static_cast<double>(sample.rows.size()), adds,
                dir.c_str());
    std::printf("%8s %21s %21s %9s %21s %9s %9s\n", "rows", "append+sync med/mean",
                "rewrite med/mean", "ratio", "rewrite+sync med/mean", "ratio", "resume");
    for (size_t rows : sizes) {
      const Result r = measureAt(sample, rows, adds, dir);
      std::printf("%8zu %10.3f %10.3f %10.3f %10.3f %8.1fx %10.3f %10.3f %8.1fx %9.1f\n", r.rows,
                  r.append.median, r.append.mean, r.rewrite.median, r.rewrite.mean,
                  r.rewrite.median / r.append.median, r.rewriteSynced.median, r.rewriteSynced.mean,
                  r.rewriteSynced.median / r.append.median, r.resumeMs);
    }
    std::printf(
        "ms per added row (median, mean); ratio = the rewrite's median / the append's median;\n"
        "resume: ms to open the file of N rows (parsed, keys kept)\n");
    fs::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_resumable_csv: %s\n", e.what());
    return 1;
  }
  return 0;
}
