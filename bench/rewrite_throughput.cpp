// Benchmark: in-process Normalizer vs the original clang -E + clang-format process pipeline.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "data/csv_reader.hpp"
#include "rewriter/normalizer.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr double kTargetMsPerKernel = 20.0;
constexpr double kTargetRatio = 10.0;

// The style of rewriter/source_formatter.cpp, as the original normalizer passed it to clang-format.
constexpr const char* kFormatStyle =
    "-style={BasedOnStyle: Google, ColumnLimit: 500, IndentWidth: 2, "
    "AllowShortBlocksOnASingleLine: false, AllowShortCaseLabelsOnASingleLine: false, "
    "AllowShortFunctionsOnASingleLine: None, AllowShortLoopsOnASingleLine: false, "
    "AllowShortIfStatementsOnASingleLine: Never, DerivePointerAlignment: false, "
    "PointerAlignment: Left}";

struct Options {
  std::string dataDir = DEEPTUNE_BENCH_DATA_DIR;
  int repetitions = 3;
  bool json = false;
};

void usage(std::ostream& out) {
  out << "usage: bench_rewrite_throughput [--data DIR] [--reps N] [--json]\n"
         "  Normalizes the distinct src kernels of DIR/cgo17-amd.csv in-process (N timed\n"
         "  repetitions after one warm-up call) and through clang -E + clang-format processes\n"
         "  (once), and reports ms per kernel. Pin it to one core: taskset -c 0 ...\n"
         "  default DIR: " DEEPTUNE_BENCH_DATA_DIR "\n";
}

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// CPU time (user + system) used so far by this process, or by its waited-for children.
double cpuMs(int who) {
  rusage usage{};
  ::getrusage(who, &usage);
  const auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// The first executable among names found on PATH (or given as a path), or "".
std::string findTool(const std::vector<std::string>& names) {
  const char* path = std::getenv("PATH");
  for (const auto& name : names) {
    if (name.find('/') != std::string::npos) {
      if (::access(name.c_str(), X_OK) == 0) return name;
      continue;
    }
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  return "";
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

/// Runs argv[0] with stdout and stderr sent to files (no shell); returns its exit status.
int runProcess(const std::vector<std::string>& args, const fs::path& stdoutFile,
               const fs::path& stderrFile) {
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot run " + args[0] + ": " + std::strerror(error));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed for " + args[0]);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// What the original normalizer kept of `clang -E` output: the text after the line marker that
/// starts the main file (`# 1 "kernel.cl" 2`, i.e. after the shim), without '#' lines.
std::string mainFileText(const std::string& preprocessed, const std::string& fileName) {
  const std::string marker = "# 1 \"" + fileName + "\" 2\n";
  size_t start = preprocessed.find(marker);
  if (start == std::string::npos) {
    throw std::runtime_error("clang -E output has no line marker for " + fileName);
  }
  start += marker.size();
  std::string output;
  std::istringstream lines(preprocessed.substr(start));
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line[0] == '#') continue;
    output += line;
    output += '\n';
  }
  return output;
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

struct ProcessResult {
  double totalMs = 0, preprocessMs = 0, formatMs = 0;
  double cpuMs = 0;  // CPU time of the whole pass (user + system, children included)
  int failures = 0;
  std::string firstFailure;
};

/// Writes each kernel to `dir`, runs clang -E then clang-format on it as processes, times both.
ProcessResult runProcessPipeline(const std::vector<std::string>& kernels, const std::string& clang,
                                 const std::string& clangFormat, const fs::path& dir) {
  const fs::path kernelFile = dir / "kernel.cl";
  const fs::path preprocessed = dir / "kernel.i.cl";
  const fs::path formatted = dir / "kernel.formatted.cl";
  const fs::path errors = dir / "stderr.txt";
  const std::vector<std::string> preprocessArgs = {clang,
                                                   "-E",
                                                   "-x",
                                                   "cl",
                                                   "-cl-std=CL1.2",
                                                   "-target",
                                                   "spir64",
                                                   "-cl-no-stdinc",
                                                   "-I" DEEPTUNE_BENCH_LIBCLC_INCLUDE_DIR,
                                                   "-include",
                                                   DEEPTUNE_BENCH_SHIM_HEADER,
                                                   "-Dcl_clang_storage_class_specifiers",
                                                   "-w",
                                                   kernelFile.string()};
  const std::vector<std::string> formatArgs = {clangFormat, kFormatStyle, preprocessed.string()};
  ProcessResult result;
  for (const auto& kernel : kernels) {
    const auto start = Clock::now();
    writeFile(kernelFile, kernel);
    const int preprocessStatus = runProcess(preprocessArgs, preprocessed, errors);
    if (preprocessStatus == 0) {
      writeFile(preprocessed, mainFileText(readFile(preprocessed), kernelFile.string()));
    }
    const auto formatStart = Clock::now();
    const int formatStatus = preprocessStatus == 0 ? runProcess(formatArgs, formatted, errors) : 0;
    const std::string output = readFile(formatted);
    result.formatMs += msSince(formatStart);
    result.preprocessMs += std::chrono::duration<double, std::milli>(formatStart - start).count();
    result.totalMs += msSince(start);
    if (preprocessStatus != 0 || formatStatus != 0 || output.empty()) {
      if (result.failures++ == 0) {
        result.firstFailure =
            (preprocessStatus != 0 ? "clang -E: " : "clang-format: ") + firstLine(readFile(errors));
      }
    }
  }
  return result;
}

/// The distinct src values of the table, in file order; throws if there are none.
std::vector<std::string> distinctSources(const deeptune::data::CsvTable& table,
                                         const std::string& csvPath) {
  const size_t srcColumn = table.column("src");
  std::vector<std::string> kernels;
  std::set<std::string> seen;
  for (const auto& row : table.rows) {
    if (seen.insert(row[srcColumn]).second) kernels.push_back(row[srcColumn]);
  }
  if (kernels.empty()) throw std::runtime_error(csvPath + ": no src values");
  return kernels;
}

struct Tools {
  std::string clang, clangFormat;
};

/// Finds clang and clang-format on PATH and checks the shim header; throws if one is missing.
Tools findTools() {
  Tools tools;
  tools.clang = findTool({"clang-15", "clang"});
  tools.clangFormat = findTool({"clang-format-15", "clang-format"});
  if (tools.clang.empty()) throw std::runtime_error("clang-15 (or clang) not found on PATH");
  if (tools.clangFormat.empty()) {
    throw std::runtime_error("clang-format-15 (or clang-format) not found on PATH");
  }
  if (!fs::exists(DEEPTUNE_BENCH_SHIM_HEADER)) {
    throw std::runtime_error(std::string("shim header not found: ") + DEEPTUNE_BENCH_SHIM_HEADER);
  }
  return tools;
}

struct InProcessResult {
  double startupMs = 0, bestMs = 0, medianMs = 0, slowestMs = 0;
  double cpuMs = 0;  // per kernel and repetition, the normalizer's worker child included
  int fixedPoints = 0, failures = 0;
  std::string firstFailure;
};

/// Whether the normalizer gave the kernel back unchanged (but for a final newline).
bool isFixedPoint(const std::string& kernel, const std::string& output) {
  std::string expected = kernel;
  if (!expected.empty() && expected.back() == '\n') expected.pop_back();
  return output == expected;
}

/// Start-up (one Normalizer and one call, untimed), then the timed passes over all kernels.
InProcessResult timeInProcess(const std::vector<std::string>& kernels, int repetitions) {
  const double n = static_cast<double>(kernels.size());
  InProcessResult result;
  const auto startupStart = Clock::now();
  std::optional<deeptune::rewriter::Normalizer> normalizer(std::in_place);
  (void)normalizer->normalize(kernels.front(), "warmup.cl");
  result.startupMs = msSince(startupStart);

  std::vector<double> perKernelMs;
  // The normalizer works in a worker child: its time counts too, once the worker is reaped (the
  // worker that did the warm-up call goes on, so that one small kernel is counted as well).
  const double cpuStart = cpuMs(RUSAGE_SELF) + cpuMs(RUSAGE_CHILDREN);
  for (int rep = 0; rep < repetitions; ++rep) {
    const auto start = Clock::now();
    for (size_t i = 0; i < kernels.size(); ++i) {
      const auto kernelStart = Clock::now();
      std::string output;
      try {
        output = normalizer->normalize(kernels[i], "kernel" + std::to_string(i) + ".cl");
      } catch (const std::exception& error) {
        if (rep == 0 && result.failures++ == 0) result.firstFailure = error.what();
      }
      result.slowestMs = std::max(result.slowestMs, msSince(kernelStart));
      if (rep == 0) result.fixedPoints += isFixedPoint(kernels[i], output);
    }
    perKernelMs.push_back(msSince(start) / n);
  }
  normalizer.reset();  // ends and reaps the worker child: its CPU time is in RUSAGE_CHILDREN now
  result.bestMs = *std::min_element(perKernelMs.begin(), perKernelMs.end());
  result.medianMs = median(perKernelMs);
  result.cpuMs = (cpuMs(RUSAGE_SELF) + cpuMs(RUSAGE_CHILDREN) - cpuStart) / repetitions / n;
  return result;
}

/// The original normalizer's processes over all kernels once, in a temp folder removed after.
ProcessResult timeProcessPipeline(const std::vector<std::string>& kernels, const Tools& tools) {
  char dirTemplate[] = "/tmp/bench_rewrite_XXXXXX";
  if (::mkdtemp(dirTemplate) == nullptr) throw std::runtime_error("cannot create a temp folder");
  const fs::path dir = dirTemplate;
  ProcessResult process;
  const double cpuStart = cpuMs(RUSAGE_SELF) + cpuMs(RUSAGE_CHILDREN);
  try {
    process = runProcessPipeline(kernels, tools.clang, tools.clangFormat, dir);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    throw;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  process.cpuMs = cpuMs(RUSAGE_SELF) + cpuMs(RUSAGE_CHILDREN) - cpuStart;
  return process;
}

struct Report {
  std::string csvPath;
  size_t kernels = 0;
  int repetitions = 0;
  InProcessResult inProcess;
  ProcessResult process;
  // Per kernel, and the ratios process / in-process.
  double processMs = 0, processCpuMs = 0, ratio = 0, ratioBest = 0, ratioCpu = 0;
  bool speedHolds = false, ratioHolds = false;
};

/// Fills in the per-kernel process figures, the ratios and whether the two targets hold.
void compare(Report& report) {
  const double n = static_cast<double>(report.kernels);
  report.processCpuMs = report.process.cpuMs / n;
  report.processMs = report.process.totalMs / n;
  // The targets are judged on wall time with the in-process median (the conservative figure).
  report.ratio = report.processMs / report.inProcess.medianMs;
  report.ratioBest = report.processMs / report.inProcess.bestMs;
  report.ratioCpu = report.processCpuMs / report.inProcess.cpuMs;
  report.speedHolds = report.inProcess.medianMs < kTargetMsPerKernel;
  report.ratioHolds = report.ratio >= kTargetRatio;
}

/// Prints the report as one JSON line on stdout.
void printJson(const Report& r) {
  const double n = static_cast<double>(r.kernels);
  char line[1024];
  std::snprintf(line, sizeof line,
                "{\"kernels\": %zu, \"repetitions\": %d, \"startup_ms\": %.1f, "
                "\"inprocess_ms_per_kernel_best\": %.3f, \"inprocess_ms_per_kernel_median\": "
                "%.3f, \"inprocess_slowest_kernel_ms\": %.3f, \"fixed_points\": %d, "
                "\"rewrite_failures\": %d, \"process_ms_per_kernel\": %.3f, "
                "\"process_preprocess_ms_per_kernel\": %.3f, \"process_format_ms_per_kernel\": "
                "%.3f, \"process_failures\": %d, \"inprocess_cpu_ms_per_kernel\": %.3f, "
                "\"process_cpu_ms_per_kernel\": %.3f, \"ratio\": %.2f, \"ratio_best\": %.2f, "
                "\"ratio_cpu\": %.2f, \"target_ms_holds\": %s, \"target_ratio_holds\": %s}",
                r.kernels, r.repetitions, r.inProcess.startupMs, r.inProcess.bestMs,
                r.inProcess.medianMs, r.inProcess.slowestMs, r.inProcess.fixedPoints,
                r.inProcess.failures, r.processMs, r.process.preprocessMs / n,
                r.process.formatMs / n, r.process.failures, r.inProcess.cpuMs, r.processCpuMs,
                r.ratio, r.ratioBest, r.ratioCpu, r.speedHolds ? "true" : "false",
                r.ratioHolds ? "true" : "false");
  std::cout << line << "\n";
}

/// Prints the report as text lines on stdout.
void printText(const Report& r) {
  const double n = static_cast<double>(r.kernels);
  char line[1024];
  std::cout << "kernels: " << r.kernels << " (distinct src of " << r.csvPath << ")\n";
  std::snprintf(line, sizeof line, "start-up (Normalizer + first call, untimed): %.1f ms\n",
                r.inProcess.startupMs);
  std::cout << line;
  std::snprintf(line, sizeof line,
                "in-process ms/kernel: best %.3f, median %.3f of %d runs (slowest kernel "
                "%.3f ms); fixed points %d/%zu\n",
                r.inProcess.bestMs, r.inProcess.medianMs, r.repetitions, r.inProcess.slowestMs,
                r.inProcess.fixedPoints, r.kernels);
  std::cout << line;
  std::snprintf(line, sizeof line,
                "process pipeline ms/kernel: %.3f (clang -E %.3f, clang-format %.3f)\n",
                r.processMs, r.process.preprocessMs / n, r.process.formatMs / n);
  std::cout << line;
  std::snprintf(
      line, sizeof line,
      "CPU ms/kernel (user+sys, incl. children): in-process %.3f, process pipeline %.3f\n",
      r.inProcess.cpuMs, r.processCpuMs);
  std::cout << line;
  std::snprintf(line, sizeof line,
                "ratio process / in-process: %.1f (median), %.1f (best), %.1f (CPU time)\n",
                r.ratio, r.ratioBest, r.ratioCpu);
  std::cout << line;
  std::snprintf(line, sizeof line,
                "target < %.0f ms/kernel (median): %s\ntarget ratio >= %.0f (median): %s\n",
                kTargetMsPerKernel, r.speedHolds ? "holds" : "FAILS", kTargetRatio,
                r.ratioHolds ? "holds" : "FAILS");
  std::cout << line;
}

/// Reports the kernels that failed (in-process or in the process pipeline) on stderr.
void printFailures(const Report& r) {
  if (r.inProcess.failures > 0) {
    std::cerr << "error: " << r.inProcess.failures
              << " kernel(s) failed to normalize; first: " << r.inProcess.firstFailure << "\n";
  }
  if (r.process.failures > 0) {
    std::cerr << "error: " << r.process.failures
              << " kernel(s) failed in the process pipeline; first: " << r.process.firstFailure
              << "\n";
  }
}

/// The whole benchmark: kernels, tools, in-process timing, process pipeline, report.
int run(const Options& options) {
  Report report;
  report.csvPath = options.dataDir + "/cgo17-amd.csv";
  // Kernels: the distinct src values, in file order (the table lives on, as it always did).
  const deeptune::data::CsvTable table = deeptune::data::readCsv(report.csvPath);
  const std::vector<std::string> kernels = distinctSources(table, report.csvPath);
  const Tools tools = findTools();
  report.kernels = kernels.size();
  report.repetitions = options.repetitions;
  report.inProcess = timeInProcess(kernels, options.repetitions);
  report.process = timeProcessPipeline(kernels, tools);
  compare(report);
  if (options.json) {
    printJson(report);
  } else {
    printText(report);
  }
  printFailures(report);
  return report.inProcess.failures > 0 || report.process.failures > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      usage(std::cout);
      return 0;
    } else if (arg == "--json") {
      options.json = true;
    } else if (arg == "--data" && i + 1 < argc) {
      options.dataDir = argv[++i];
    } else if (arg == "--reps" && i + 1 < argc) {
      options.repetitions = std::atoi(argv[++i]);
      if (options.repetitions < 1) {
        std::cerr << "error: --reps needs a positive integer\n";
        return 2;
      }
    } else {
      std::cerr << "error: unknown or incomplete argument '" << arg << "'\n";
      usage(std::cerr);
      return 2;
    }
  }
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  }
}
