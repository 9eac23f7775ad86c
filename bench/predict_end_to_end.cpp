// End-to-end prediction: the 247 paper kernels through api::Predictor in one process after
// start-up (rewrite, tokenize, model), the start-up itself, `deeptune predict` as a process and
// a launches file of 1,000 launches.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "api/predictor.hpp"
#include "bench/bench_common.hpp"
#include "data/datasets.hpp"

using deeptune::bench::Clock;
using deeptune::bench::msSince;
using deeptune::bench::percentile;
using deeptune::bench::processMs;

namespace {

/// A launches file of `rows` launches over 200 distinct kernel files written into `folder` (the
/// paper's distinct kernels, each its own file) for `deeptune predict --launches`; its path.
std::string writeLaunchesFile(const std::vector<std::string>& kernels, const std::string& folder,
                              size_t rows) {
  std::filesystem::create_directories(folder);
  const size_t files = std::min<size_t>(200, kernels.size());
  for (size_t k = 0; k < files; ++k) {
    std::ofstream(folder + "/k" + std::to_string(k) + ".cl") << kernels[k];
  }
  const std::string path = folder + "/launches.csv";
  std::ofstream csv(path);
  csv << "file,dsize,wgsize\n";
  for (size_t r = 0; r < rows; ++r) {
    csv << "k" << r % files << ".cl," << (1024u << (r % 13)) << "," << (32u << (r % 4)) << "\n";
  }
  return path;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dataDir = argc > 1 ? argv[1] : deeptune::data::defaultPaperDataDir();
  if (argc > 2 || (argc == 2 && std::string(argv[1]).rfind("-", 0) == 0)) {
    std::fprintf(stderr,
                 "usage: bench_predict_end_to_end [DATA_DIR]\n"
                 "  Predicts every distinct kernel of DATA_DIR/cgo17-amd.csv (the paper's data\n"
                 "  folder by default) in one process, then times `deeptune predict` processes.\n");
    return 2;
  }
  const std::vector<std::string> distinct =
      deeptune::bench::distinctPaperKernelsOrExit(dataDir, "bench_predict_end_to_end");

  // Start-up: the model load, then the first prediction (the rewriter's set-up).
  auto start = Clock::now();
  deeptune::api::Predictor predictor(deeptune::api::findBundledModel("amd"));
  const double loadMs = msSince(start);
  start = Clock::now();
  predictor.predict("__kernel void A(__global float* a) { a[0] = 1.0f; }", "warm.cl", "", 1, 1);
  const double firstMs = msSince(start);

  std::vector<double> endToEnd, network;
  for (const std::string& source : distinct) {
    start = Clock::now();
    try {
      predictor.predict(source, "kernel.cl", "", 1 << 24, 128);
    } catch (const std::exception&) {  // a kernel the rewriter refuses: its time counts too
    }
    endToEnd.push_back(msSince(start));
    start = Clock::now();  // the same kernel at other sizes: the encoding is cached
    try {
      predictor.predict(source, "kernel.cl", "", 1 << 20, 64);
    } catch (const std::exception&) {
    }
    network.push_back(msSince(start));
  }
  const auto within30 =
      std::count_if(endToEnd.begin(), endToEnd.end(), [](double ms) { return ms <= 30; });

  // The whole process, against the same binary doing nothing but start and exit.
  const std::string cli = DEEPTUNE_BENCH_CLI;
  const std::string kernel = std::string(DEEPTUNE_BENCH_SOURCE_DIR) + "/kernels/saxpy.cl";
  const double helpMs = processMs({cli, "--help"}, 5);
  // What a process that loads LibTorch pays before any work: the training commands' executable.
  const std::string trainingCli = cli + "-train";
  const double torchHelpMs = processMs({trainingCli, "--help"}, 5);
  const double predictMs = processMs(
      {cli, "predict", kernel, "--dsize", "4194304", "--wgsize", "64", "--platform", "amd"}, 5);

  // A launches file: 1,000 launches over 200 kernel files in one process, against 200 processes'
  // worth of the single-kernel predict above (the per-kernel alternative).
  const std::string folder = std::filesystem::temp_directory_path().string() +
                             "/deeptune-bench-launches-" + std::to_string(getpid());
  const std::string launches = writeLaunchesFile(distinct, folder, 1000);
  const double launchesMs = processMs({cli, "predict", "--launches", launches}, 1);
  std::filesystem::remove_all(folder);

  std::printf("end-to-end prediction, %zu distinct paper kernels, one process\n", distinct.size());
  std::printf("  start-up: model load %.0f ms, first prediction (rewriter set-up) %.0f ms\n",
              loadMs, firstMs);
  std::printf("  %-40s %9s %9s %9s\n", "", "median", "p90", "max");
  std::printf("  %-40s %9.2f %9.2f %9.2f ms\n", "rewrite + tokenize + model",
              percentile(endToEnd, 0.5), percentile(endToEnd, 0.9), percentile(endToEnd, 1.0));
  std::printf("  %-40s %9.2f %9.2f %9.2f ms\n", "baseline: the model alone (cached encoding)",
              percentile(network, 0.5), percentile(network, 0.9), percentile(network, 1.0));
  std::printf("  ratio end-to-end / model (median): %.1fx; within 30 ms: %ld of %zu\n",
              percentile(endToEnd, 0.5) / percentile(network, 0.5), static_cast<long>(within30),
              endToEnd.size());
  std::printf("  process `deeptune predict kernels/saxpy.cl`: %.0f ms (median of 5)\n", predictMs);
  std::printf("  baseline: process `deeptune --help`: %.0f ms (ratio %.2fx)\n", helpMs,
              predictMs / helpMs);
  std::printf("  process `deeptune-train --help` (LibTorch loaded): %.0f ms (%.1fx predict)\n",
              torchHelpMs, torchHelpMs / predictMs);
  std::printf(
      "  process `deeptune predict --launches` (1000 launches, 200 kernel files): %.1f s "
      "(%.2fx 200 single-kernel processes)\n",
      launchesMs / 1000, launchesMs / (200 * predictMs));
  return predictMs < 0 || helpMs < 0 || torchHelpMs < 0 || launchesMs < 0 ? 1 : 0;
}
