// deeptune measure --task coarsening: times each kernel and its thread-coarsened variants on every
// OpenCL device (isolated workers, outputs checked against factor 1) in pact-2014-runtimes form.
#include <iostream>
#include <string>
#include <vector>

#include "api/coarsening_runs.hpp"
#include "data/duration_text.hpp"
#include "data/file_io.hpp"
#include "data/option_values.hpp"
#include "data/progress_printer.hpp"
#include "data/resumable_csv.hpp"
#include "rewriter/normalizer.hpp"
#include "runtime/coarsening_csv.hpp"
#include "runtime/device_text.hpp"
#include "runtime/isolation.hpp"
#include "runtime/measure_jobs.hpp"
#include "runtime/runtime_error.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/measure_output.hpp"
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
    "rows. Rows are written as they finish; rerun with the same -o to resume. One run at a time\n"
    "per output: another run writing OUT.csv makes this one stop with exit code 1.";

}  // namespace

int runMeasureCoarsening(const Args& args) {
  po::options_description options("options");
  std::vector<std::string> files;
  std::string task, kernel, gsizeText, factorText, output;
  RunValues runValues;
  options.add_options()("task", po::value(&task), "coarsening")(
      "files", po::value(&files)->multitoken(), "(positional) .cl files")(
      "kernel", po::value(&kernel), "only this kernel of each file")(
      "gsize", po::value(&gsizeText)->required(), "global size S (one)")(
      "factors", po::value(&factorText)->default_value("1,2,4,8,16,32"),
      "factors among 1,2,4,8,16,32 (must include 1)")(
      "wgsize", po::value(&runValues.wgsize)->default_value(0),
      "work-group size before coarsening (0: min(S, 256)); a multiple of every factor");
  addRunOptions(options, runValues, true, true);
  options.add_options()("output,o", po::value(&output)->required(), "CSV to write (- = stdout)");
  SourceOptionValues sourceValues;
  po::variables_map vm;
  if (!parseWithSourceOptions(args, kUsage, options, sourceValues, vm, "files")) return kExitOk;

  const std::vector<size_t> gsizes =
      data::parseSizeList(gsizeText, "measure: --gsize", size_t{1} << 31);
  if (gsizes.size() != 1) throw UsageError("measure: --task coarsening takes one --gsize");
  const std::vector<size_t> factors = data::parseFactorList(factorText);
  if (files.empty()) throw UsageError("measure: --task coarsening needs .cl files");
  data::checkDistinctFiles(files);
  data::checkRunOptions("measure", runValues.timeout, runValues.runs, runValues.wgsize);
  data::checkFactorWorkGroupSize(runValues.wgsize, factors);
  const data::SourceOptions sourceOptions = sourceValues.validated();
  data::checkOutputNotInput(output, files, data::OutputKind::kFileOrStdout);

  // Every kernel to label, named uniquely.
  const rewriter::Normalizer normalizer;
  api::LabelRun run;
  for (const std::string& file : files) {
    const std::string source = readTextFile(file);
    const std::vector<std::string> names =
        api::kernelsToLabel(normalizer, source, file, kernel, sourceOptions);
    if (names.empty()) throw UsageError(file + ":1:1: no kernel in the file");
    for (const std::string& name : names) run.kernels.push_back({file, name});
    run.files.emplace(file, api::LabelFile{source, data::openClBuildFlags(sourceOptions, file)});
  }
  run.names = runtime::uniqueKernelNames(run.kernels);
  run.factors = factors;
  run.sourceOptions = sourceOptions;
  run.launch = {gsizes.front(), static_cast<size_t>(runValues.wgsize), runValues.runs,
                runValues.seed, ""};

  const runtime::IsolationOptions isolation = workerIsolation(runValues.timeout);
  const std::vector<runtime::DeviceInfo> devices =
      runtime::requireDevicesIsolated("measure", isolation);
  const std::vector<std::string> labels = runtime::coarseningDeviceLabels(devices);
  // The output first: a run refused (another run writes it) says so in its one line.
  data::ResumableCsv writer(output, runtime::coarseningCsvHeader(labels));
  for (size_t d = 0; d < devices.size(); ++d) {
    std::cerr << "measure: runtime_" << labels[d] << " = " << runtime::deviceLine(devices[d])
              << "\n";
  }
  reportResumed(writer, output);
  data::ProgressPrinter printer;
  const size_t count = run.kernels.size();
  const api::LabelTotals totals = api::labelFactors(
      normalizer, run, devices, isolation, writer, [&](const api::LabelDone& done) {
        const std::string& summary = done.summary;
        printer.update("measure: " + data::stepProgress(done.index, count, printer.elapsed()) +
                       ": " + run.names[done.index] +
                       (summary.empty() ? ": already in " + output : ": " + summary));
      });
  for (const std::string& line : totals.refused) {
    std::cerr << "measure: not coarsenable: " << line << "\n";
  }
  printer.update(totals.summaryLine(count, data::formatDuration(printer.elapsed()), output), true);
  return kExitOk;
}

}  // namespace deeptune::cli
