// deeptune evaluate: cross-validates static, Grewe et al. and DeepTune on identical folds.
#include <cstdio>

#include "data/duration_text.hpp"
#include "data/file_io.hpp"
#include "data/progress_printer.hpp"
#include "evaluation/devmap_report.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "model/train_option_names.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/training_inputs.hpp"
#include "training/devmap_evaluation.hpp"

namespace deeptune::cli {
namespace {

/// The command line of evaluate (devmap): the library's request and what the CLI resolves.
struct EvaluateArguments {
  training::DevmapEvaluationRequest request;
  std::string task, dataPath, foldsPath, methodList, protocol;
  std::string batching, lstm, pretrainCorpus, sourceFeatures, treeSettings, calibration;
};

po::options_description evaluateOptions(EvaluateArguments& a) {
  po::options_description options("evaluate options");
  // clang-format off
  options.add_options()
      ("task", po::value(&a.task)->default_value("devmap"), "devmap or coarsening (the usage above)")
      ("data", po::value(&a.dataPath)->required(), "labelled CSV (e.g. cgo17-amd.csv)")
      ("folds", po::value(&a.foldsPath), "folds CSV (protocol 'folds'; e.g. folds-amd.csv)")
      ("protocol", po::value(&a.protocol)->default_value("folds"),
       "folds (the --folds file), suite (leave one suite out), kernel (10 folds grouped by source)")
      ("methods", po::value(&a.methodList)->default_value("static,grewe,deeptune"),
       "comma-separated: static, grewe, deeptune, shipped (what train writes by default), "
       "source-boosted, token-boosted, and the references hand-tree, memory, hand-boosted "
       "(evaluation/README.md)")
      ("source-features", po::value(&a.sourceFeatures)->default_value("counts"),
       "what source-boosted reads: tokens, counts, ratios; views joined by + (e.g. counts+tokens)")
      ("boosted-trees", po::value(&a.treeSettings), "source-boosted's trees (default rounds=50,"
       "depth=6,eta=0.3,colsample=0.5,models=1,seed=0)")
      ("calibration",
       po::value(&a.calibration)->default_value(training::SourceBoostedOptions{}.calibration),
       "source-boosted's probability: none, platt, temperature or isotonic, fitted on 5 inner "
       "folds of each fold's training sources")
      ("validation", "score on 5 inner folds of each fold's training sources, not the test folds")
      ("report", po::value(&a.request.reportDir)->required(), "report folder to write")
      ("platform", po::value(&a.request.platform), "platform name in the report (default: from --data)")
      ("epochs", po::value(&a.request.deeptune.train.epochs)->default_value(50), "DeepTune epochs")
      ("batch-size", po::value(&a.request.deeptune.train.batchSize)->default_value(64), "rows per batch")
      ("batching", po::value(&a.batching)->default_value("rows"),
       "rows (shuffled rows, like the paper), random (shuffled whole sources) or length "
       "(whole sources of similar lengths, fastest)")
      ("lstm", po::value(&a.lstm)->default_value("fast"), model::kLstmNamesHelp)
      ("seed", po::value(&a.request.deeptune.train.seed)->default_value(204),
       "seed (fold f uses seed+f; run r of --seeds adds 1000r)")
      ("seeds", po::value(&a.request.seeds)->default_value(1),
       "DeepTune runs with different seeds; the report gives their mean and spread")
      ("max-length", po::value(&a.request.deeptune.maxLength)->default_value(1024), "keep the last N tokens")
      ("paper-padding", "pre-pad every sequence to --max-length (the paper's Keras input)")
      ("aux-scale", po::value(&a.request.deeptune.auxScale)->default_value("raw"),
       "how DeepTune reads transfer and wgsize: raw (the paper's) or log2")
      ("ensemble", "with --seeds 2 or more, also report deeptune-ensemble (the runs averaged)")
      ("pooling", po::value(&a.request.deeptune.pooling)->default_value("last"),
       "what DeepTune's heads read of the LSTM: last (the paper's) or mean (over every token)")
      ("early-stopping", po::value(&a.request.deeptune.earlyStopping)->default_value(0),
       "hold out this share of each fold's training sources, keep its best epoch (0: off)")
      ("pretrain-epochs", po::value(&a.request.deeptune.pretrainEpochs)->default_value(0),
       "pretrain DeepTune's LSTM as a next-token language model on each fold's training "
       "sources for this many epochs first (0: off, the paper's)")
      ("pretrain-corpus", po::value(&a.pretrainCorpus),
       "with --pretrain-epochs: also pretrain on this folder's .cl files (normalized kernels)")
      ("tree-head", "also report deeptune-tree: a depth-5 tree on each network's states and sizes")
      ("boosted-head", "also report deeptune-boosted: XGBoost's boosted trees on the same "
       "states and log2 sizes (with --ensemble, also their probabilities averaged)")
      ("boosted-head-counts", "also report deeptune-boosted-tc: the same with token counts")
      ("counts-colsample", po::value(&a.request.heads.countsColumnSample)->default_value(1.0),
       "deeptune-boosted-tc: share of the columns each tree may split on")
      ("from", po::value(&a.request.fromPath),
       "fine-tune: every fold's DeepTune starts from this model (a file, or amd / nvidia for a "
       "bundled one), its vocabulary and sizes; the whole network when its devices are the "
       "data's, else its language model")
      ("freeze-epochs", po::value(&a.request.deeptune.train.frozenEpochs)->default_value(0),
       "with --from: keep the embedding and LSTM fixed for the first N epochs (-1: throughout)")
      ("train-kernels", po::value(&a.request.protocol.subset.kernels)->default_value(0),
       "learning curves: every method of a fold trains on this many of its training sources "
       "(drawn with --seed + fold; 0: all)")
      ("workers", po::value(&a.request.workers)->default_value(2), "folds trained at once");
  // clang-format on
  return options;
}

}  // namespace

int runEvaluate(const Args& args) {
  if (asksForTask(args, "coarsening")) {  // the coarsening task has its own options
    return runEvaluateCoarsening(args);
  }
  EvaluateArguments a;
  training::DevmapEvaluationRequest& request = a.request;
  po::options_description options = evaluateOptions(a);
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune evaluate --task devmap --data CSV --folds FOLDS.csv "
                    "[--methods static,grewe,deeptune] --report DIR\n\n"
                    "Cross-validates each method on the same folds and writes a report folder\n"
                    "(summary.md, CSV tables, SVG plots). The coarsening task has options of its\n"
                    "own: deeptune help evaluate --task coarsening.",
                    options, {}, vm)) {
    return kExitOk;
  }
  if (a.task != "devmap") throw UsageError("evaluate: unknown --task '" + a.task + "'");
  request.deeptune.paperPadding = vm.count("paper-padding") > 0;
  request.ensemble = vm.count("ensemble") > 0;
  request.validation = vm.count("validation") > 0;
  request.sourceBoosted =
      training::sourceBoostedOptions(a.sourceFeatures, a.treeSettings, a.calibration, "evaluate");
  request.protocol.subset.seed = request.deeptune.train.seed;
  training::checkDevmapEvaluationRequest(request);
  if (!a.pretrainCorpus.empty()) training::addPretrainCorpus(request, a.pretrainCorpus);
  if (!request.fromPath.empty()) {
    request.fromPath = startingModelPath(request.fromPath, vm, "evaluate");
  }
  request.heads.tree = vm.count("tree-head") > 0;
  request.heads.boosted = vm.count("boosted-head") > 0;
  request.heads.boostedTokenCounts = vm.count("boosted-head-counts") > 0;
  request.deeptune.train.batching = model::parseBatching(a.batching);
  request.deeptune.train.lstm = model::parseLstm(a.lstm);
  data::checkOutputNotInput(request.reportDir, {a.dataPath, a.foldsPath},
                            data::OutputKind::kFolder);
  api::DevmapInput input = readDevmapData(a.dataPath);
  const evaluation::TrainingSubset subset = request.protocol.subset;
  request.protocol =
      evaluation::devmapProtocol(a.protocol, input.rows, a.foldsPath, request.deeptune.train.seed);
  request.protocol.subset = subset;
  request.rows = std::move(input.rows);
  request.devices = std::move(input.devices);
  request.methods = evaluation::selectMethods(a.methodList, evaluation::devmapMethods(), "devmap");
  if (request.platform.empty()) {
    request.platform = a.dataPath.substr(a.dataPath.find_last_of('/') + 1);
  }
  request.dataName = a.dataPath;
  request.command = commandLine("evaluate", args);

  data::ProgressPrinter printer;
  const training::DevmapEvaluation result =
      training::evaluateDevmap(request, training::printedEvaluationProgress(printer, request));
  std::fputs(
      (request.validation
           ? training::validationTable(request.platform, request.protocol.description,
                                       result.validation)
           : evaluation::devmapScoreTable(request.platform, request.protocol.description,
                                          request.rows, request.protocol.foldOfRow, result.methods))
          .c_str(),
      stdout);
  std::printf("report: %s/%s (%s)\n", request.reportDir.c_str(),
              request.validation ? "validation.csv" : "summary.md",
              data::formatDuration(printer.elapsed()).c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
