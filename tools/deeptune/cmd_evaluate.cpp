// deeptune evaluate: cross-validates static, Grewe et al. and DeepTune on identical folds.
#include <atomic>
#include <cstdio>
#include <sstream>

#include "data/datasets.hpp"
#include "model/cross_validation.hpp"
#include "model/devmap_data.hpp"
#include "model/devmap_deeptune.hpp"
#include "model/devmap_metrics.hpp"
#include "model/devmap_report.hpp"
#include "model/grewe_tree.hpp"
#include "model/static_mapping.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/progress.hpp"
#include "tools/deeptune/train_options.hpp"

namespace deeptune::cli {
namespace {

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream stream(list);
  for (std::string item; std::getline(stream, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

}  // namespace

int runEvaluate(const Args& args) {
  po::options_description options("evaluate options");
  std::string task, dataPath, foldsPath, methodList, reportDir, platform, protocol;
  model::DeepTuneMethodOptions deeptune;
  int workers = 2;
  std::string batching;
  // clang-format off
  options.add_options()
      ("task", po::value(&task)->default_value("devmap"), "task: devmap")
      ("data", po::value(&dataPath)->required(), "labelled CSV (e.g. cgo17-amd.csv)")
      ("folds", po::value(&foldsPath), "folds CSV (protocol 'folds'; e.g. folds-amd.csv)")
      ("protocol", po::value(&protocol)->default_value("folds"),
       "folds (the --folds file), suite (leave one suite out), kernel (10 folds grouped by source)")
      ("methods", po::value(&methodList)->default_value("static,grewe,deeptune"),
       "comma-separated: static, grewe, deeptune")
      ("report", po::value(&reportDir)->required(), "report folder to write")
      ("platform", po::value(&platform), "platform name in the report (default: from --data)")
      ("epochs", po::value(&deeptune.train.epochs)->default_value(50), "DeepTune epochs")
      ("batch-size", po::value(&deeptune.train.batchSize)->default_value(64), "rows per batch")
      ("batching", po::value(&batching)->default_value("rows"),
       "rows (shuffled rows, like the paper), random (shuffled whole sources) or length "
       "(whole sources of similar lengths, fastest)")
      ("seed", po::value(&deeptune.train.seed)->default_value(204), "seed (fold f uses seed+f)")
      ("max-length", po::value(&deeptune.maxLength)->default_value(1024), "keep the last N tokens")
      ("paper-padding", "pre-pad every sequence to --max-length (the paper's Keras input)")
      ("workers", po::value(&workers)->default_value(2), "folds trained at once");
  // clang-format on
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune evaluate --task devmap --data CSV --folds FOLDS.csv "
                    "[--methods static,grewe,deeptune] --report DIR\n\n"
                    "Cross-validates each method on the same folds and writes a report folder\n"
                    "(summary.md, CSV tables, SVG plots).",
                    options, {}, vm)) {
    return kExitOk;
  }
  if (task != "devmap") throw UsageError("evaluate: unknown --task '" + task + "'");
  if (workers < 1 || deeptune.train.epochs < 1) {
    throw UsageError("evaluate: --workers and --epochs must be positive");
  }
  deeptune.paperPadding = vm.count("paper-padding") > 0;
  deeptune.train.batching = parseBatching(batching);
  const auto rows = data::readDevmapCsv(dataPath);
  std::vector<int> foldOfRow;
  std::string protocolText;
  if (protocol == "folds") {
    if (foldsPath.empty()) throw UsageError("evaluate: --folds is required with --protocol folds");
    foldOfRow = model::foldOfRows(rows, data::readFoldsCsv(foldsPath));
    protocolText = "cross-validation on the folds of " + foldsPath;
  } else if (protocol == "suite") {
    foldOfRow = model::foldsBySuite(rows);
    protocolText = "leave one suite out";
  } else if (protocol == "kernel") {
    foldOfRow = model::foldsByKernel(rows, 10, deeptune.train.seed);
    protocolText = "10 folds grouped by kernel source (no source in both train and test)";
  } else {
    throw UsageError("evaluate: unknown --protocol '" + protocol + "'");
  }
  if (platform.empty()) platform = dataPath.substr(dataPath.find_last_of('/') + 1);
  const int folds = *std::max_element(foldOfRow.begin(), foldOfRow.end()) + 1;

  ProgressPrinter printer;
  std::vector<model::MethodPredictions> methods;
  for (const std::string& method : splitList(methodList)) {
    model::DevmapPredictor predictor;
    int methodWorkers = 1;
    if (method == "static") {
      predictor = model::staticMappingPredictor(rows);
    } else if (method == "grewe") {
      predictor = model::greweTreePredictor(rows);
    } else if (method == "deeptune") {
      const auto vocabulary = model::devmapVocabulary(rows, dataPath);
      methodWorkers = workers;
      if (workers > 1) model::setComputeThreads(1);  // a worker per core instead
      auto done = std::make_shared<std::atomic<int>>(0);
      const int totalEpochs = folds * deeptune.train.epochs;
      predictor = model::deeptunePredictor(
          rows, vocabulary, deeptune,
          [&printer, done, totalEpochs, folds](int fold, const model::EpochProgress& p) {
            const int finished = ++*done;
            const double eta = printer.elapsed() / finished * (totalEpochs - finished);
            char line[200];
            std::snprintf(line, sizeof line,
                          "deeptune fold %d/%d  epoch %d/%d  loss %.4f  accuracy %.3f  ETA %s",
                          fold + 1, folds, p.epoch, p.epochs, p.loss, p.accuracy,
                          formatDuration(eta).c_str());
            printer.update(line);
          });
    } else {
      throw UsageError("evaluate: unknown method '" + method + "' (static, grewe, deeptune)");
    }
    methods.push_back(
        {method, model::crossValidate(rows.size(), foldOfRow, predictor, methodWorkers)});
    printer.update(method + ": done after " + formatDuration(printer.elapsed()), true);
  }
  if (methods.empty()) throw UsageError("evaluate: --methods names no method");
  model::writeDevmapReport(reportDir, platform, rows, foldOfRow, methods, protocolText);

  std::printf("%s, %s, %zu rows\n", platform.c_str(), protocolText.c_str(), rows.size());
  std::printf("%-10s %9s %9s %9s %9s\n", "method", "accuracy", "speedup", "geomean", "%oracle");
  for (const auto& scores : model::scoreMethods(rows, foldOfRow, methods)) {
    std::printf("%-10s %8.1f%% %8.2fx %8.2fx %8.1f%%\n", scores.method.c_str(),
                100 * scores.overall.accuracy, scores.overall.speedupMean,
                scores.overall.speedupGeomean, scores.overall.oraclePercent);
  }
  std::printf("report: %s/summary.md (%s)\n", reportDir.c_str(),
              formatDuration(printer.elapsed()).c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
