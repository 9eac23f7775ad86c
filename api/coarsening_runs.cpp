// One kernel run at each thread-coarsening factor on every device (measure and validate share it).
#include "api/coarsening_runs.hpp"

#include <map>

#include "data/resumable_csv.hpp"
#include "rewriter/normalizer.hpp"
#include "rewriter/rewrite_error.hpp"
#include "runtime/measure_jobs.hpp"

namespace deeptune::api {

std::vector<runtime::FactorRun> runFactors(
    const rewriter::Normalizer& normalizer, const std::string& source, const std::string& file,
    const std::string& kernel, const std::vector<size_t>& factors,
    const data::SourceOptions& sourceOptions, const FactorLaunch& launch, size_t deviceCount,
    const runtime::IsolationOptions& isolation, const std::function<bool(size_t)>& wanted,
    std::string& refusal) {
  std::map<size_t, rewriter::CoarsenedKernel> variants;
  refusal.clear();
  bool coarsens = false;
  for (size_t factor : factors) {
    if (factor == 1) continue;
    coarsens = true;
    try {
      variants.emplace(factor, normalizer.coarsen(source, file, kernel, static_cast<int>(factor),
                                                  false, sourceOptions));
    } catch (const rewriter::RewriteError& e) {
      if (!e.aboutInput()) throw;  // the rewriter's own setup failed, not this kernel
      refusal = e.what();
    }
  }
  if (coarsens && variants.empty()) return {};
  std::vector<runtime::FactorRun> runs;
  for (size_t factor : factors) {
    if (!wanted(factor)) continue;
    runtime::FactorRun run;
    run.factor = factor;
    const auto variant = variants.find(factor);
    if (factor != 1 && variant == variants.end()) {
      run.refusal = refusal;
      runs.push_back(std::move(run));
      continue;
    }
    runtime::MeasureRequest request;
    request.source = factor == 1 ? source : variant->second.source;
    request.buildFlags = launch.buildFlags;
    request.kernels = {factor == 1 ? kernel : variant->second.kernel};
    request.gsizes = {launch.gsize};
    request.wgsize = launch.wgsize;
    request.runs = launch.runs;
    request.seed = launch.seed;
    request.coarsening = factor;
    if (factor != 1) request.referenceSource = source;
    runtime::measureIsolated(
        request, deviceCount, isolation,
        [&](const runtime::KernelResult& result) { run.devices = result.devices; });
    run.devices.resize(deviceCount);
    runs.push_back(std::move(run));
  }
  return runs;
}

std::vector<std::string> kernelsToLabel(const rewriter::Normalizer& normalizer,
                                        const std::string& source, const std::string& file,
                                        const std::string& kernel,
                                        const data::SourceOptions& sourceOptions) {
  std::vector<std::string> names;
  for (const rewriter::KernelName& k : normalizer.kernels(source, file, sourceOptions)) {
    names.push_back(k.original);
  }
  if (kernel.empty()) return names;
  runtime::requireKernelNamed(names, kernel, file);
  return {kernel};
}

LabelTotals labelFactors(const rewriter::Normalizer& normalizer, const LabelRun& run,
                         const std::vector<runtime::DeviceInfo>& devices,
                         const runtime::IsolationOptions& isolation, data::ResumableCsv& writer,
                         const std::function<void(const LabelDone&)>& onKernel) {
  LabelTotals totals;
  for (size_t j = 0; j < run.kernels.size(); ++j) {
    const runtime::FileKernel& job = run.kernels[j];
    const std::string& name = run.names[j];
    const LabelFile& file = run.files.at(job.file);
    const std::string src =
        normalizer.extractKernel(file.source, job.file, job.kernel, nullptr, run.sourceOptions);
    FactorLaunch launch = run.launch;
    launch.buildFlags = file.buildFlags;
    LabelDone done;
    done.index = j;
    std::string refusal;
    const std::vector<runtime::FactorRun> results = runFactors(
        normalizer, file.source, job.file, job.kernel, run.factors, run.sourceOptions, launch,
        devices.size(), isolation,
        [&](size_t factor) { return !writer.has(name, std::to_string(factor)); }, refusal);
    if (results.empty() && !refusal.empty()) {
      totals.refused.push_back(name + ": " + refusal);
      continue;
    }
    for (const runtime::FactorRun& factorRun : results) {
      const runtime::CoarseningRow row =
          runtime::coarseningCsvRow(name, factorRun, devices.size(), src);
      writer.add(row.fields);
      ++totals.rows;
      for (const std::string& status : row.statuses) ++totals.counts[status];
      done.summary += (done.summary.empty() ? "" : " ") + std::to_string(factorRun.factor) + ":" +
                      row.statuses.front();
    }
    onKernel(done);
  }
  return totals;
}

std::string LabelTotals::summaryLine(size_t kernels, const std::string& duration,
                                     const std::string& output) const {
  return "measure: " + std::to_string(rows) + " rows (" + std::to_string(kernels - refused.size()) +
         " kernels) in " + duration + " to " + output +
         " (device results: " + runtime::tallyText(counts) + "); " +
         std::to_string(refused.size()) + " kernels not coarsenable";
}

}  // namespace deeptune::api
