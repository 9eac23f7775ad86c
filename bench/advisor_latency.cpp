// Advisor latency: start-up, the first decision for a new kernel (rewrite, tokenize, model) and a
// cached decision, each beside a baseline run in the same process (docs/embedding.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "api/advisor.hpp"
#include "api/predictor.hpp"
#include "bench/bench_common.hpp"
#include "data/datasets.hpp"
#include "runtime/devices.hpp"

using deeptune::bench::Clock;
using deeptune::bench::msSince;
using deeptune::bench::percentile;

namespace {

/// A launch of `source` on the candidate devices, with fixed sizes.
deeptune::api::LaunchQuery makeQuery(const std::string& source,
                                     const std::vector<cl_device_id>& candidates) {
  deeptune::api::LaunchQuery q;
  q.source = source;
  q.candidates = candidates;
  q.range = deeptune::api::NDRange({1 << 20}, {128});
  q.transferBytes = 1 << 24;
  return q;
}

/// Milliseconds per kernel: first decisions of the advisor, and the predictor alone beside them.
struct FirstDecisions {
  std::vector<double> adviseMs, predictMs, networkMs;
  size_t fallbacks = 0;
};

/// The advisor's first decision on each kernel, beside the predictor alone on the same kernel.
FirstDecisions timeFirstDecisions(deeptune::api::Advisor& advisor,
                                  deeptune::api::Predictor& predictor,
                                  const std::vector<std::string>& kernels,
                                  const std::vector<cl_device_id>& candidates) {
  // Baseline for a first decision: the predictor alone (rewrite, tokenize, model), same kernels.
  predictor.predict("__kernel void warm(__global float* a) { a[0] = 1.0f; }", "warm.cl", "", 1, 1);
  FirstDecisions result;
  for (const std::string& source : kernels) {
    auto start = Clock::now();
    const deeptune::api::Decision d = advisor.advise(makeQuery(source, candidates));
    result.adviseMs.push_back(msSince(start));
    result.fallbacks += d.fallback ? 1 : 0;
    start = Clock::now();
    try {
      predictor.predict(source, "kernel.cl", "", 1 << 24, 128);
    } catch (const std::exception&) {  // the advisor fell back on the same kernel
    }
    result.predictMs.push_back(msSince(start));
    start = Clock::now();  // the same kernel again, other sizes: the encoding is cached
    try {
      predictor.predict(source, "kernel.cl", "", 1 << 20, 64);
    } catch (const std::exception&) {
    }
    result.networkMs.push_back(msSince(start));
  }
  return result;
}

/// Milliseconds per first decision with a decision budget, and how many were deferred.
struct BudgetDecisions {
  std::vector<double> budgetMs;
  size_t deferred = 0;
};

/// The same first decisions through an advisor with a decision budget (fresh, cold cache).
BudgetDecisions timeBudgetedDecisions(deeptune::api::Advisor& budgetAdvisor,
                                      const std::vector<std::string>& kernels,
                                      const std::vector<cl_device_id>& candidates) {
  // The kernels the model cannot answer in time get the fallback, and the model's answer later.
  // Each kernel is asked after the previous one's background work has finished (not timed).
  budgetAdvisor.advise(
      makeQuery("__kernel void warm(__global float* a) { a[0] = 2.0f; }", candidates));
  BudgetDecisions result;
  for (const std::string& source : kernels) {
    const auto start = Clock::now();
    result.deferred += budgetAdvisor.advise(makeQuery(source, candidates)).deferred ? 1 : 0;
    result.budgetMs.push_back(msSince(start));
    budgetAdvisor.finishDeferred();
  }
  return result;
}

/// What the rewriter's bounded child costs before any work: fork, exit, wait (this process), in ms.
double timeBareFork() {
  const auto start = Clock::now();
  for (int i = 0; i < 20; ++i) {
    const pid_t child = fork();
    if (child == 0) _exit(0);
    int status = 0;
    waitpid(child, &status, 0);
  }
  return msSince(start) / 20;
}

/// Microseconds per cached decision, and per hash of the source (the baseline).
struct CachedDecisions {
  double cachedUs = 0, hashUs = 0;
  size_t cached = 0, total = 0, sink = 0;
};

/// A cached decision, against hashing the source (what any cache keyed by it must do).
CachedDecisions timeCachedDecisions(deeptune::api::Advisor& advisor,
                                    const std::vector<std::string>& kernels,
                                    const std::vector<cl_device_id>& candidates) {
  const int rounds = 200;
  std::vector<deeptune::api::LaunchQuery> queries;
  for (const std::string& source : kernels) queries.push_back(makeQuery(source, candidates));
  CachedDecisions result;
  result.total = rounds * queries.size();
  auto start = Clock::now();
  for (int r = 0; r < rounds; ++r) {
    for (const auto& q : queries) result.cached += advisor.advise(q).cached ? 1 : 0;
  }
  result.cachedUs = msSince(start) * 1e3 / static_cast<double>(rounds * queries.size());
  start = Clock::now();
  for (int r = 0; r < rounds; ++r) {
    for (const auto& q : queries) result.sink += std::hash<std::string>{}(q.source);
  }
  result.hashUs = msSince(start) * 1e3 / static_cast<double>(rounds * queries.size());
  return result;
}

/// Everything measured, for the report.
struct Results {
  size_t kernels = 0, candidates = 0;
  double loadMs = 0, firstEverMs = 0, forkMs = 0;
  size_t slowestKernelChars = 0;
  FirstDecisions first;
  BudgetDecisions budget;
  CachedDecisions cached;
};

/// Prints one table row: median, p90 and max of `ms`.
void printRow(const char* label, const std::vector<double>& ms) {
  std::printf("  %-34s %9.2f %9.2f %9.2f ms\n", label, percentile(ms, 0.5), percentile(ms, 0.9),
              percentile(ms, 1.0));
}

/// Prints the report on stdout.
void printResults(const Results& r) {
  std::printf("advisor latency, %zu distinct paper kernels, %zu candidate device(s)\n", r.kernels,
              r.candidates);
  std::printf("  start-up: model load %.0f ms, first decision ever %.0f ms\n", r.loadMs,
              r.firstEverMs);
  std::printf("  a bare fork + exit + wait of this process: %.2f ms\n", r.forkMs);
  std::printf("  %-34s %9s %9s %9s\n", "", "median", "p90", "max");
  printRow("first decision, new kernel", r.first.adviseMs);
  printRow("baseline: Predictor::predict", r.first.predictMs);
  printRow("of which the network (new sizes)", r.first.networkMs);
  printRow("first decision, 50 ms budget", r.budget.budgetMs);
  const auto within = std::count_if(r.first.adviseMs.begin(), r.first.adviseMs.end(),
                                    [](double ms) { return ms <= 50; });
  std::printf("  slowest first decision: a kernel of %zu characters\n", r.slowestKernelChars);
  std::printf("  first decisions within 50 ms: %ld of %zu (the model's answer)\n",
              static_cast<long>(within), r.first.adviseMs.size());
  std::printf(
      "  with the 50 ms budget: %zu of %zu deferred to the fallback, the model's answer\n"
      "    cached for their next launch\n",
      r.budget.deferred, r.budget.budgetMs.size());
  std::printf("  ratio advisor / predictor (median): %.2fx\n",
              percentile(r.first.adviseMs, 0.5) / percentile(r.first.predictMs, 0.5));
  std::printf("  cached decision: %.2f us (baseline: hashing the source %.2f us, ratio %.1fx)\n",
              r.cached.cachedUs, r.cached.hashUs, r.cached.cachedUs / r.cached.hashUs);
  std::printf("  %zu of %zu decisions cached, %zu fallbacks (checksum %zu)\n", r.cached.cached,
              r.cached.total, r.first.fallbacks, r.cached.sink % 10);
}

}  // namespace

/// Times the advisor on every distinct paper kernel and prints the report; 2 on bad arguments.
int main(int argc, char** argv) {
  const std::string dataDir = argc > 1 ? argv[1] : deeptune::data::defaultPaperDataDir();
  if (argc > 2 || (argc == 2 && std::string(argv[1]).rfind("-", 0) == 0)) {
    std::fprintf(stderr,
                 "usage: bench_advisor_latency [DATA_DIR]\n"
                 "  Advises on every distinct kernel of DATA_DIR/cgo17-amd.csv (the paper's data\n"
                 "  folder by default) on this machine's OpenCL devices, in one process.\n");
    return 2;
  }
  const std::vector<std::string> kernels =
      deeptune::bench::distinctPaperKernelsOrExit(dataDir, "bench_advisor_latency");
  std::vector<cl_device_id> candidates;
  for (const auto& d : deeptune::runtime::listDevices()) candidates.push_back(d.id);
  if (candidates.empty()) {
    std::fprintf(stderr, "bench_advisor_latency: no OpenCL device\n");
    return 1;
  }
  Results results;
  results.kernels = kernels.size();
  results.candidates = candidates.size();

  // Start-up: model load, then the first decision (the rewriter's PCH and set-up).
  auto start = Clock::now();
  deeptune::api::Advisor advisor;
  results.loadMs = msSince(start);
  if (!advisor.modelProblem().empty()) {
    std::fprintf(stderr, "bench_advisor_latency: %s\n", advisor.modelProblem().c_str());
    return 1;
  }
  start = Clock::now();
  advisor.advise(makeQuery("__kernel void warm(__global float* a) { a[get_global_id(0)] = 1.0f; }",
                           candidates));
  results.firstEverMs = msSince(start);

  // The predictor and the budgeted advisor stay alive to the end, as they always did (the bare
  // fork below copies this process with them).
  deeptune::api::Predictor predictor(deeptune::api::findBundledModel("amd"));
  results.first = timeFirstDecisions(advisor, predictor, kernels, candidates);
  // The same first decisions with a 50 ms decision budget.
  deeptune::api::AdvisorOptions budgeted;
  budgeted.decisionBudgetMs = 50;
  deeptune::api::Advisor budgetAdvisor(budgeted);
  results.budget = timeBudgetedDecisions(budgetAdvisor, kernels, candidates);
  results.forkMs = timeBareFork();
  results.cached = timeCachedDecisions(advisor, kernels, candidates);
  const auto& adviseMs = results.first.adviseMs;
  const size_t slowest =
      static_cast<size_t>(std::max_element(adviseMs.begin(), adviseMs.end()) - adviseMs.begin());
  results.slowestKernelChars = kernels[slowest].size();

  printResults(results);
  return results.cached.cached == results.cached.total ? 0 : 1;
}
