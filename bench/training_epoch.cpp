// One training epoch on the paper's device-mapping data: LibTorch's LSTM against the
// hand-written one, same data, seed and number of compute threads, in the same process.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"

namespace {

using deeptune::model::TrainOptions;

struct EpochRun {
  double seconds = 0;
  double loss = 0;
};

EpochRun oneEpoch(const std::vector<deeptune::model::Example>& examples,
                  const deeptune::model::ModelInfo& info, TrainOptions::Lstm lstm, int threads) {
  // The stock path's threads are LibTorch's and the BLAS's; the fast path's are its loops' (a
  // second BLAS thread would spin on the core its second loop thread needs).
  deeptune::model::setComputeThreads(lstm == TrainOptions::Lstm::kStock ? threads : 1);
  deeptune::model::DeepTuneModel model(info, 204);
  TrainOptions options;
  options.epochs = 1;
  options.lstm = lstm;
  options.lstmThreads = threads;
  const auto start = std::chrono::steady_clock::now();
  const auto summary = model.train(examples, options);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          summary.finalLoss};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dataDir = argc > 1 ? argv[1] : deeptune::data::defaultPaperDataDir();
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::string only = argc > 3 ? argv[3] : "both";  // or one path, to profile it
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  const int stockThreads = argc > 5 ? std::atoi(argv[5]) : threads;
  if (argc > 6 || (only != "both" && only != "stock" && only != "fast") ||
      (argc > 1 && std::string(argv[1]).rfind("-", 0) == 0) || rounds < 1 || rounds > 20 ||
      threads < 1 || threads > 64 || stockThreads < 1 || stockThreads > 64) {
    std::fprintf(
        stderr,
        "usage: bench_training_epoch [DATA_DIR [ROUNDS [both|stock|fast [THREADS [STOCK]]]]]\n"
        "  One epoch on all rows of DATA_DIR/cgo17-amd.csv (the paper's data folder by\n"
        "  default), LibTorch's LSTM and the fast one alternately, ROUNDS (3) times each\n"
        "  (or only one of them, to profile it), the fast one on THREADS threads (1, as each\n"
        "  worker of `evaluate` trains; TrainOptions::lstmThreads), the stock one on STOCK\n"
        "  threads (LibTorch's and the BLAS's; default THREADS).\n");
    return 2;
  }
  const auto rows = deeptune::data::readDevmapCsv(dataDir + "/cgo17-amd.csv");
  const auto vocabulary = deeptune::model::devmapVocabulary(rows, "cgo17-amd");
  const auto info = deeptune::model::devmapModelInfo(vocabulary, 1024, false);
  const auto examples = deeptune::model::devmapExamples(rows, vocabulary, 1024);
  size_t tokens = 0;
  for (const auto& e : examples) tokens += e.tokens.size();
  std::vector<double> stock, fast;
  double stockLoss = 0, fastLoss = 0;
  for (int r = 0; r < rounds; ++r) {
    const EpochRun s = only == "fast"
                           ? EpochRun{}
                           : oneEpoch(examples, info, TrainOptions::Lstm::kStock, stockThreads);
    const EpochRun f =
        only == "stock" ? EpochRun{} : oneEpoch(examples, info, TrainOptions::Lstm::kFast, threads);
    stock.push_back(s.seconds);
    fast.push_back(f.seconds);
    stockLoss = s.loss;
    fastLoss = f.loss;
  }
  std::sort(stock.begin(), stock.end());
  std::sort(fast.begin(), fast.end());
  const double stockMedian = stock[stock.size() / 2], fastMedian = fast[fast.size() / 2];
  std::printf(
      "one training epoch, %zu rows of cgo17-amd (%zu tokens), batch 64, threads: stock %d, "
      "fast %d\n",
      examples.size(), tokens, stockThreads, threads);
  std::printf("  %-26s %9s %9s %9s %12s\n", "", "median", "min", "max", "epoch loss");
  std::printf("  %-26s %8.2fs %8.2fs %8.2fs %12.6f\n", "LibTorch nn::LSTM (stock)", stockMedian,
              stock.front(), stock.back(), stockLoss);
  std::printf("  %-26s %8.2fs %8.2fs %8.2fs %12.6f\n", "hand-written (fast)", fastMedian,
              fast.front(), fast.back(), fastLoss);
  std::printf("  ratio stock / fast (median): %.1fx over %d rounds\n", stockMedian / fastMedian,
              rounds);
  return 0;
}
