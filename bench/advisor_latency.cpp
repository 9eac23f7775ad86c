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

int main(int argc, char** argv) {
  const std::string dataDir = argc > 1 ? argv[1] : deeptune::data::defaultPaperDataDir();
  if (argc > 2 || (argc == 2 && std::string(argv[1]).rfind("-", 0) == 0)) {
    std::fprintf(stderr,
                 "usage: bench_advisor_latency [DATA_DIR]\n"
                 "  Advises on every distinct kernel of DATA_DIR/cgo17-amd.csv (the paper's data\n"
                 "  folder by default) on this machine's OpenCL devices, in one process.\n");
    return 2;
  }
  const std::vector<std::string> kernels = deeptune::bench::distinctPaperKernels(dataDir);
  std::vector<cl_device_id> candidates;
  for (const auto& d : deeptune::runtime::listDevices()) candidates.push_back(d.id);
  if (candidates.empty()) {
    std::fprintf(stderr, "bench_advisor_latency: no OpenCL device\n");
    return 1;
  }
  auto query = [&](const std::string& source) {
    deeptune::api::LaunchQuery q;
    q.source = source;
    q.candidates = candidates;
    q.range = deeptune::api::NDRange({1 << 20}, {128});
    q.transferBytes = 1 << 24;
    return q;
  };

  // Start-up: model load, then the first decision (the rewriter's PCH and set-up).
  auto start = Clock::now();
  deeptune::api::Advisor advisor;
  const double loadMs = msSince(start);
  if (!advisor.modelProblem().empty()) {
    std::fprintf(stderr, "bench_advisor_latency: %s\n", advisor.modelProblem().c_str());
    return 1;
  }
  start = Clock::now();
  advisor.advise(query("__kernel void warm(__global float* a) { a[get_global_id(0)] = 1.0f; }"));
  const double firstEverMs = msSince(start);

  // Baseline for a first decision: the predictor alone (rewrite, tokenize, model), same kernels.
  deeptune::api::Predictor predictor(deeptune::api::findBundledModel("amd"));
  predictor.predict("__kernel void warm(__global float* a) { a[0] = 1.0f; }", "warm.cl", "", 1, 1);
  std::vector<double> adviseMs, predictMs, networkMs;
  size_t fallbacks = 0;
  for (const std::string& source : kernels) {
    start = Clock::now();
    const deeptune::api::Decision d = advisor.advise(query(source));
    adviseMs.push_back(msSince(start));
    fallbacks += d.fallback ? 1 : 0;
    start = Clock::now();
    try {
      predictor.predict(source, "kernel.cl", "", 1 << 24, 128);
    } catch (const std::exception&) {  // the advisor fell back on the same kernel
    }
    predictMs.push_back(msSince(start));
    start = Clock::now();  // the same kernel again, other sizes: the encoding is cached
    try {
      predictor.predict(source, "kernel.cl", "", 1 << 20, 64);
    } catch (const std::exception&) {
    }
    networkMs.push_back(msSince(start));
  }

  // The same first decisions with a 50 ms decision budget (a fresh advisor, cold cache): the
  // kernels the model cannot answer in time get the fallback, and the model's answer later.
  // Each kernel is asked after the previous one's background work has finished (not timed).
  deeptune::api::AdvisorOptions budgeted;
  budgeted.decisionBudgetMs = 50;
  deeptune::api::Advisor budgetAdvisor(budgeted);
  budgetAdvisor.advise(query("__kernel void warm(__global float* a) { a[0] = 2.0f; }"));
  std::vector<double> budgetMs;
  size_t deferred = 0;
  for (const std::string& source : kernels) {
    start = Clock::now();
    deferred += budgetAdvisor.advise(query(source)).deferred ? 1 : 0;
    budgetMs.push_back(msSince(start));
    budgetAdvisor.finishDeferred();
  }

  // What the rewriter's bounded child costs before any work: fork, exit, wait (this process).
  start = Clock::now();
  for (int i = 0; i < 20; ++i) {
    const pid_t child = fork();
    if (child == 0) _exit(0);
    int status = 0;
    waitpid(child, &status, 0);
  }
  const double forkMs = msSince(start) / 20;

  // A cached decision, against hashing the source (what any cache keyed by it must do).
  const int rounds = 200;
  std::vector<deeptune::api::LaunchQuery> queries;
  for (const std::string& source : kernels) queries.push_back(query(source));
  start = Clock::now();
  size_t cached = 0;
  for (int r = 0; r < rounds; ++r) {
    for (const auto& q : queries) cached += advisor.advise(q).cached ? 1 : 0;
  }
  const double cachedUs = msSince(start) * 1e3 / static_cast<double>(rounds * queries.size());
  start = Clock::now();
  size_t sink = 0;
  for (int r = 0; r < rounds; ++r) {
    for (const auto& q : queries) sink += std::hash<std::string>{}(q.source);
  }
  const double hashUs = msSince(start) * 1e3 / static_cast<double>(rounds * queries.size());

  std::printf("advisor latency, %zu distinct paper kernels, %zu candidate device(s)\n",
              kernels.size(), candidates.size());
  std::printf("  start-up: model load %.0f ms, first decision ever %.0f ms\n", loadMs, firstEverMs);
  std::printf("  a bare fork + exit + wait of this process: %.2f ms\n", forkMs);
  std::printf("  %-34s %9s %9s %9s\n", "", "median", "p90", "max");
  std::printf("  %-34s %9.2f %9.2f %9.2f ms\n", "first decision, new kernel",
              percentile(adviseMs, 0.5), percentile(adviseMs, 0.9), percentile(adviseMs, 1.0));
  std::printf("  %-34s %9.2f %9.2f %9.2f ms\n", "baseline: Predictor::predict",
              percentile(predictMs, 0.5), percentile(predictMs, 0.9), percentile(predictMs, 1.0));
  std::printf("  %-34s %9.2f %9.2f %9.2f ms\n", "of which the network (new sizes)",
              percentile(networkMs, 0.5), percentile(networkMs, 0.9), percentile(networkMs, 1.0));
  std::printf("  %-34s %9.2f %9.2f %9.2f ms\n", "first decision, 50 ms budget",
              percentile(budgetMs, 0.5), percentile(budgetMs, 0.9), percentile(budgetMs, 1.0));
  const auto within =
      std::count_if(adviseMs.begin(), adviseMs.end(), [](double ms) { return ms <= 50; });
  const size_t slowest =
      static_cast<size_t>(std::max_element(adviseMs.begin(), adviseMs.end()) - adviseMs.begin());
  std::printf("  slowest first decision: a kernel of %zu characters\n", kernels[slowest].size());
  std::printf("  first decisions within 50 ms: %ld of %zu (the model's answer)\n",
              static_cast<long>(within), adviseMs.size());
  std::printf(
      "  with the 50 ms budget: %zu of %zu deferred to the fallback, the model's answer\n"
      "    cached for their next launch\n",
      deferred, budgetMs.size());
  std::printf("  ratio advisor / predictor (median): %.2fx\n",
              percentile(adviseMs, 0.5) / percentile(predictMs, 0.5));
  std::printf("  cached decision: %.2f us (baseline: hashing the source %.2f us, ratio %.1fx)\n",
              cachedUs, hashUs, cachedUs / hashUs);
  std::printf("  %zu of %zu decisions cached, %zu fallbacks (checksum %zu)\n", cached,
              rounds * queries.size(), fallbacks, sink % 10);
  return cached == rounds * queries.size() ? 0 : 1;
}
