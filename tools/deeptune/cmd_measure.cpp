// deeptune measure: times kernels on every OpenCL device in isolated workers and writes a CSV.
#include <iostream>
#include <string>
#include <vector>

#include "data/duration_text.hpp"
#include "data/file_io.hpp"
#include "data/option_values.hpp"
#include "data/progress_printer.hpp"
#include "data/resumable_csv.hpp"
#include "runtime/device_text.hpp"
#include "runtime/isolation.hpp"
#include "runtime/measure_csv.hpp"
#include "runtime/measure_jobs.hpp"
#include "runtime/measure_run.hpp"
#include "runtime/runtime_error.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/measure_output.hpp"
#include "tools/deeptune/worker_command.hpp"

namespace deeptune::cli {
namespace {

const char* kUsage =
    "usage: deeptune measure [--task devmap] [FILE.cl...] [--kernel NAME] [--csv FILE]\n"
    "                        --gsize N[,N...]\n"
    "                        [--wgsize M] [--timeout S] [--runs R] [--seed X]\n"
    "                        [-D NAME[=VALUE]]... [-I DIR]... -o OUT.csv\n"
    "\n"
    "Runs kernels on every OpenCL device of this machine and writes one CSV row per kernel and\n"
    "global size: benchmark, dataset, gsize, wgsize, transfer, oracle, runtime_cpu, runtime_gpu\n"
    "(ms, kernel + copies, median), per device dev<i>_name/_type/_status/_checks/_wgsize/\n"
    "_kernel_ns/_h2d_ns/_d2h_ns/_total_ns/_ci_low_ns/_ci_high_ns/_runs/_message, and src.\n"
    "Inputs: .cl files (every kernel, or --kernel NAME; benchmark = FILE:KERNEL, src = the\n"
    "file) and/or --csv FILE with `benchmark` and `src` columns (one row per benchmark name, a\n"
    "source shared by several names is run once; src left empty, as for the paper's data).\n"
    "Payload for global size S: each global/constant buffer holds S elements of its type (random,\n"
    "seeded), local memory wgsize elements, integer scalars S, float scalars random in [0,1).\n"
    "Each source runs in a fresh worker process: one that hangs past --timeout or crashes gives\n"
    "a TIMEOUT or CRASH row and the run goes on. Rows are written as they finish (each appended\n"
    "and synced to disk); rerun with the same -o to resume: rows already in it are kept and not\n"
    "measured again (a last row an interrupted run left incomplete is cut off and measured\n"
    "again). One run at a time per output: while another run writes OUT.csv, measure says so and\n"
    "stops with exit code 1 without touching it. A size or file given twice is refused (exit 2).\n"
    "CSV rows that cannot be measured (empty src, a second source under one name) are listed on\n"
    "stderr. Statuses and the CSV: runtime/README.md.";

/// The jobs of the inputs with the host's build flags; the input rows that cannot be measured are
/// said on stderr and listed in `notMeasured`.
std::vector<runtime::MeasureJob> jobsOf(const std::vector<std::string>& files,
                                        const std::string& kernel, const std::string& csv,
                                        const data::SourceOptions& sourceOptions,
                                        std::vector<std::string>& notMeasured) {
  std::vector<runtime::MeasureJob> jobs =
      runtime::inputJobs(files, kernel, csv, readTextFile, notMeasured);
  for (const std::string& line : notMeasured) std::cerr << "measure: " << line << "\n";
  for (runtime::MeasureJob& job : jobs) {
    job.buildFlags = data::openClBuildFlags(sourceOptions, job.file.empty() ? csv : job.file);
  }
  return jobs;
}

}  // namespace

int runMeasure(const Args& args) {
  if (asksForTask(args, "coarsening")) {  // the coarsening task has its own options
#ifdef DEEPTUNE_WITH_REWRITER
    return runMeasureCoarsening(args);
#else
    throw UsageError("measure: --task coarsening needs the rewriter (this build has none)");
#endif
  }
  po::options_description options("options");
  std::string task = "devmap";
  std::vector<std::string> files;
  std::string kernel, csv, gsizeText, output;
  RunValues run;
  size_t guardMb = 16;
  options.add_options()(
      "task", po::value(&task),
      "devmap (default; these options) or coarsening (its own: help measure --task coarsening)")(
      "files", po::value(&files)->multitoken(), "(positional) .cl files")(
      "kernel", po::value(&kernel), "only this kernel of each .cl file")(
      "csv", po::value(&csv), "CSV with benchmark and src columns (e.g. a paper CSV)")(
      "gsize", po::value(&gsizeText)->required(), "global sizes S, comma-separated")(
      "wgsize", po::value(&run.wgsize)->default_value(0),
      "work-group size (0: min(S, 256)); clamped to the device's and kernel's limits");
  addRunOptions(options, run, true, true);
  options.add_options()(
      "guard-mb", po::value(&guardMb)->default_value(16),
      "MiB of zeroed guard zone before and after each buffer (catches overrunning indices)")(
      "output,o", po::value(&output)->required(), "CSV to write (- = stdout)");
  SourceOptionValues sourceValues;
  po::variables_map vm;
  if (!parseWithSourceOptions(args, kUsage, options, sourceValues, vm, "files")) return kExitOk;

  if (task != "devmap") {
    throw UsageError("measure: unknown --task '" + task + "' (devmap, coarsening)");
  }
  const std::vector<size_t> gsizes =
      data::parseSizeList(gsizeText, "measure: --gsize", size_t{1} << 31);
  data::checkDistinctSizes(gsizes, "measure: --gsize");
  if (files.empty() && csv.empty()) throw UsageError("measure: give .cl files and/or --csv FILE");
  data::checkDistinctFiles(files);
  data::checkRunOptions("measure", run.timeout, run.runs, run.wgsize);
  if (guardMb > 4096) throw UsageError("measure: --guard-mb is too large (at most 4096)");
  const data::SourceOptions sourceOptions = sourceValues.validated();
  std::vector<std::string> inputs = files;
  if (!csv.empty()) inputs.push_back(csv);
  data::checkOutputNotInput(output, inputs, data::OutputKind::kFileOrStdout);
  std::vector<std::string> notMeasured;
  const std::vector<runtime::MeasureJob> jobs =
      jobsOf(files, kernel, csv, sourceOptions, notMeasured);

  const runtime::IsolationOptions isolation = workerIsolation(run.timeout);
  const std::vector<runtime::DeviceInfo> devices =
      runtime::requireDevicesIsolated("measure", isolation);
  // The output first: a run refused (another run writes it) says so in its one line.
  data::ResumableCsv writer(output, runtime::measureCsvHeader(devices));
  for (const runtime::DeviceInfo& d : devices) {
    std::cerr << "measure: dev" << d.index << " = " << runtime::deviceLine(d) << "\n";
  }
  reportResumed(writer, output);
  data::ProgressPrinter printer;
  const runtime::MeasureLaunch launch{gsizes, static_cast<size_t>(run.wgsize), run.runs, run.seed,
                                      guardMb << 20};
  const runtime::MeasureTotals totals = runtime::measureJobs(
      jobs, launch, devices, isolation, writer, [&](const runtime::JobDone& done) {
        const std::string& label = jobs[done.index].label;
        if (done.alreadyWritten) {
          printer.update("measure: [" + std::to_string(done.index + 1) + "/" +
                         std::to_string(jobs.size()) + "] " + label + ": already in " + output);
        } else {
          printer.update(
              "measure: " + data::stepProgress(done.index, jobs.size(), printer.elapsed()) + ": " +
              label + ": " + done.summary);
        }
      });
  printer.update(runtime::measureSummaryLine(totals, data::formatDuration(printer.elapsed()),
                                             output, notMeasured.size(), writer.kept()),
                 true);
  return kExitOk;
}

}  // namespace deeptune::cli
