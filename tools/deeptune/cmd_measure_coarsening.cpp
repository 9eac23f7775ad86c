// deeptune measure --task coarsening: times each kernel and its thread-coarsened variants on every
// OpenCL device (isolated workers, outputs checked against factor 1) in pact-2014-runtimes form.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "data/text_check.hpp"
#include "rewriter/normalizer.hpp"
#include "runtime/isolation.hpp"
#include "runtime/measure_csv.hpp"
#include "runtime/runtime_error.hpp"
#include "tools/deeptune/coarsening_runs.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/measure_output.hpp"
#include "tools/deeptune/progress.hpp"
#include "tools/deeptune/worker_command.hpp"

namespace deeptune::cli {
namespace {

const char* kUsage =
    "usage: deeptune measure --task coarsening FILE.cl... [--kernel NAME] --gsize S\n"
    "                        [--factors 1,2,4,8,16,32] [--wgsize M] [--timeout T] [--runs R]\n"
    "                        [--seed X] [-D NAME[=VALUE]]... [-I DIR]... -o OUT.csv\n"
    "\n"
    "Thread-coarsening labels: every kernel of the files (or --kernel NAME) is run at global\n"
    "size S as it is (factor 1) and coarsened by each other factor (`deeptune coarsen`), on every\n"
    "OpenCL device, each variant in a fresh worker process. A coarsened kernel's outputs must\n"
    "equal the un-coarsened kernel's on the same device and input (else FACTOR_DISAGREES). The\n"
    "CSV has the columns of pact-2014-runtimes.csv that `train` and `evaluate --task coarsening`\n"
    "read: kernel, cf, runtime_<device> (median kernel time in ns; empty when the variant did\n"
    "not pass every check), then status_<device>, message and src (the normalized un-coarsened\n"
    "kernel). Kernels the transform refuses at every factor are listed on stderr and get no\n"
    "rows. Rows are written as they finish; rerun with the same -o to resume.";

/// `runtime_<label>` names: the device name with every character outside [A-Za-z0-9.-] as '_'
/// (a second device of the same name gets its index appended).
std::vector<std::string> deviceLabels(const std::vector<runtime::DeviceInfo>& devices) {
  std::vector<std::string> labels;
  for (const runtime::DeviceInfo& d : devices) {
    std::string label;
    for (char c : d.name) {
      const bool kept = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
      label += kept ? c : '_';
    }
    if (label.empty()) label = "device";
    if (std::find(labels.begin(), labels.end(), label) != labels.end()) {
      label += "_" + std::to_string(d.index);
    }
    labels.push_back(label);
  }
  return labels;
}

std::vector<std::string> header(const std::vector<std::string>& labels) {
  std::vector<std::string> columns = {"kernel", "cf"};
  for (const std::string& label : labels) columns.push_back("runtime_" + label);
  for (const std::string& label : labels) columns.push_back("status_" + label);
  columns.push_back("message");
  columns.push_back("src");
  return columns;
}

/// One kernel of one file to label.
struct KernelJob {
  std::string file;
  std::string source;
  std::string kernel;  ///< its name in the file
  std::string name;    ///< the `kernel` column: the name, or FILE-STEM:NAME if files share it
};

}  // namespace

int runMeasureCoarsening(const Args& args) {
  po::options_description options("options");
  std::vector<std::string> files;
  std::string task, kernel, gsizeText, factorText, output;
  long long wgsize = 0;
  double timeout = 60;
  int runs = 6;
  uint64_t seed = 204;
  options.add_options()("task", po::value(&task), "coarsening")(
      "files", po::value(&files)->multitoken(), "(positional) .cl files")(
      "kernel", po::value(&kernel), "only this kernel of each file")(
      "gsize", po::value(&gsizeText)->required(), "global size S (one)")(
      "factors", po::value(&factorText)->default_value("1,2,4,8,16,32"),
      "factors among 1,2,4,8,16,32 (must include 1)")(
      "wgsize", po::value(&wgsize)->default_value(0),
      "work-group size before coarsening (0: min(S, 256)); a multiple of every factor")(
      "timeout", po::value(&timeout)->default_value(60), "seconds per build and per measurement")(
      "runs", po::value(&runs)->default_value(6), "timed runs after the warm-up (at least 5)")(
      "seed", po::value(&seed)->default_value(204), "payload seed")(
      "output,o", po::value(&output)->required(), "CSV to write (- = stdout)");
  SourceOptionValues sourceValues;
  addSourceOptions(options, sourceValues);
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map vm;
  if (!parseOptions(args, kUsage, options, positional, vm)) return kExitOk;

  const std::vector<size_t> gsizes = parseSizeList(gsizeText, "measure: --gsize", size_t{1} << 31);
  if (gsizes.size() != 1) throw UsageError("measure: --task coarsening takes one --gsize");
  const std::vector<size_t> factors = parseSizeList(factorText, "measure: --factors", 32);
  for (size_t factor : factors) {
    if ((factor & (factor - 1)) != 0) {  // the model's labels: 1, 2, 4, 8, 16, 32
      throw UsageError("measure: --factors: " + std::to_string(factor) +
                       " is not one of 1, 2, 4, 8, 16, 32");
    }
  }
  if (std::find(factors.begin(), factors.end(), size_t{1}) == factors.end()) {
    throw UsageError("measure: --factors must include 1 (speedups are over factor 1)");
  }
  if (std::set<size_t>(factors.begin(), factors.end()).size() != factors.size()) {
    throw UsageError("measure: --factors lists a factor twice");
  }
  if (files.empty()) throw UsageError("measure: --task coarsening needs .cl files");
  checkRunOptions("measure", timeout, runs, wgsize);
  for (size_t factor : factors) {
    if (wgsize > 0 && static_cast<size_t>(wgsize) % factor != 0) {
      throw UsageError("measure: --wgsize " + std::to_string(wgsize) +
                       " is not a multiple of the factor " + std::to_string(factor));
    }
  }
  const data::SourceOptions sourceOptions = sourceValues.validated();
  checkNotAnInput(output, files);

  // Every kernel to label, named uniquely.
  const rewriter::Normalizer normalizer;
  std::vector<KernelJob> jobs;
  std::map<std::string, int> nameCount;
  for (const std::string& file : files) {
    const std::string source = readFile(file);
    if (const auto fault = data::findTextFault(source)) {
      throw UsageError(file + ":" + std::to_string(fault->line) + ":" +
                       std::to_string(fault->column) + ": not a text file (" + fault->what + ")");
    }
    std::vector<std::string> names;
    for (const rewriter::KernelName& k : normalizer.kernels(source, file, sourceOptions)) {
      names.push_back(k.original);
    }
    if (!kernel.empty()) {
      if (std::find(names.begin(), names.end(), kernel) == names.end()) {
        std::string list;
        for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
        throw UsageError(file + ":1:1: no kernel named '" + kernel + "'; kernels: " + list);
      }
      names = {kernel};
    }
    if (names.empty()) throw UsageError(file + ":1:1: no kernel in the file");
    for (const std::string& name : names) {
      jobs.push_back({file, source, name, name});
      ++nameCount[name];
    }
  }
  for (KernelJob& job : jobs) {
    if (nameCount[job.kernel] > 1) {
      job.name = std::filesystem::path(job.file).stem().string() + ":" + job.kernel;
    }
  }

  runtime::IsolationOptions isolation;
  isolation.workerCommand = measureWorkerCommand();
  isolation.timeoutSeconds = timeout;
  const std::vector<runtime::DeviceInfo> devices = runtime::listDevicesIsolated(isolation);
  if (devices.empty()) throw runtime::RuntimeError("measure: no OpenCL device found");
  const std::vector<std::string> labels = deviceLabels(devices);
  for (size_t d = 0; d < devices.size(); ++d) {
    std::cerr << "measure: runtime_" << labels[d] << " = " << devices[d].type << " "
              << devices[d].name << " (" << devices[d].platform << ")\n";
  }

  RowWriter writer(output, header(labels));
  if (writer.kept() > 0) {
    std::cerr << "measure: resuming " << output << ": " << writer.kept()
              << " rows kept, not measured again\n";
  }
  ProgressPrinter printer;
  std::vector<std::string> refused;
  size_t rows = 0;
  std::map<std::string, int> counts;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const KernelJob& job = jobs[j];
    const std::string src =
        normalizer.extractKernel(job.source, job.file, job.kernel, nullptr, sourceOptions);
    FactorLaunch launch;
    launch.gsize = gsizes.front();
    launch.wgsize = static_cast<size_t>(wgsize);
    launch.runs = runs;
    launch.seed = seed;
    launch.buildFlags = openClBuildFlags(sourceOptions, job.file);
    std::string refusal;
    const std::vector<FactorRun> results = runFactors(
        normalizer, job.source, job.file, job.kernel, factors, sourceOptions, launch,
        devices.size(), isolation,
        [&](size_t factor) { return !writer.has(job.name, std::to_string(factor)); }, refusal);
    if (results.empty() && !refusal.empty()) {
      refused.push_back(job.name + ": " + refusal);
      continue;
    }
    std::string summary;
    for (const FactorRun& run : results) {
      std::vector<std::string> row = {job.name, std::to_string(run.factor)};
      std::vector<std::string> statuses(devices.size(), "REFUSED");
      std::vector<std::string> times(devices.size());
      std::string message = run.refusal;
      for (size_t d = 0; d < devices.size() && run.refusal.empty(); ++d) {
        const runtime::Measurement& m = run.devices[d];
        statuses[d] = runtime::statusName(m.status);
        if (const auto ns = kernelTimeNs(m)) {
          char text[32];
          std::snprintf(text, sizeof text, "%.0f", *ns);
          times[d] = text;
        } else if (message.empty()) {
          message = runtime::summarizeMessage(m.message);
        }
      }
      row.insert(row.end(), times.begin(), times.end());
      row.insert(row.end(), statuses.begin(), statuses.end());
      row.push_back(message);
      row.push_back(src);
      writer.add(row);
      ++rows;
      for (const std::string& status : statuses) ++counts[status];
      summary += (summary.empty() ? "" : " ") + std::to_string(run.factor) + ":" + statuses.front();
    }
    const double elapsed = printer.elapsed();
    const double eta =
        elapsed / static_cast<double>(j + 1) * static_cast<double>(jobs.size() - j - 1);
    char line[160];
    std::snprintf(line, sizeof line, "measure: [%zu/%zu] %s, ETA %s: ", j + 1, jobs.size(),
                  formatDuration(elapsed).c_str(), formatDuration(eta).c_str());
    printer.update(line + job.name + (summary.empty() ? ": already in " + output : ": " + summary));
  }
  for (const std::string& line : refused) std::cerr << "measure: not coarsenable: " << line << "\n";
  std::string tally;
  for (const auto& [name, count] : counts) {
    tally += (tally.empty() ? "" : ", ") + name + " " + std::to_string(count);
  }
  printer.update("measure: " + std::to_string(rows) + " rows (" +
                     std::to_string(jobs.size() - refused.size()) + " kernels) in " +
                     formatDuration(printer.elapsed()) + " to " + output + " (device results: " +
                     tally + "); " + std::to_string(refused.size()) + " kernels not coarsenable",
                 true);
  return kExitOk;
}

}  // namespace deeptune::cli
