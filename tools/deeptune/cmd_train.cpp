// deeptune train: trains a device-mapping or coarsening predictor on labelled data and saves it.
#include <cstdio>

#include "data/duration_text.hpp"
#include "data/file_io.hpp"
#include "data/progress_printer.hpp"
#include "model/compute_environment.hpp"
#include "model/train_option_names.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/training_inputs.hpp"
#include "training/model_training.hpp"

namespace deeptune::cli {
namespace {

/// The command line of train: the library's request and the CLI's paths and names.
struct TrainArguments {
  training::TrainRequest request;
  std::string dataPath, output, batching, lstm, sourceFeatures, treeSettings, calibration;
};

po::options_description trainOptions(TrainArguments& a) {
  po::options_description options("train options");
  // clang-format off
  options.add_options()
      ("task", po::value(&a.request.task)->default_value("devmap"), "task: devmap or coarsening")
      ("method", po::value(&a.request.method), "devmap: source-boosted (default), token-boosted "
       "or deeptune; coarsening: fixed-factor (default) or deeptune (README.md, \"Predictors\")")
      ("source-features", po::value(&a.sourceFeatures)->default_value("counts"),
       "source-boosted: tokens, counts, ratios; views joined by +")
      ("boosted-trees", po::value(&a.treeSettings), "source-boosted: e.g. rounds=50,depth=6 (evaluate --help)")
      ("calibration",
       po::value(&a.calibration)->default_value(training::SourceBoostedOptions{}.calibration),
       "source-boosted: none, platt, temperature or isotonic, fitted on 5 inner folds of the "
       "training sources and kept in the model file")
      ("data", po::value(&a.dataPath)->required(),
       "labelled CSV (devmap: e.g. cgo17-amd.csv, or a CSV `deeptune measure` wrote on two "
       "devices; coarsening: e.g. pact-2014-runtimes.csv)")
      ("platform", po::value(&a.request.platform),
       "coarsening: the device whose runtimes label the kernels (e.g. Tahiti)")
      ("transfer-from", po::value(&a.request.transferPath),
       "start from this model's embedding and LSTM layers and vocabulary (transfer learning)")
      ("from", po::value(&a.request.fromPath),
       "devmap, deeptune: fine-tune this network (a file, or amd / nvidia: the bundled ones); "
       "new output layers when its devices are not the data's")
      ("freeze-epochs", po::value(&a.request.train.frozenEpochs)->default_value(0),
       "with --from or --transfer-from: keep the embedding and LSTM fixed for the first N "
       "epochs (-1: throughout)")
      ("output,o", po::value(&a.output)->required(), "model file to write")
      ("vocab", po::value(&a.request.vocabularyPath), "vocabulary JSON (default: derived from the data's src)")
      ("epochs", po::value(&a.request.train.epochs)->default_value(50), "training epochs")
      ("batch-size", po::value(&a.request.train.batchSize)->default_value(64), "rows per batch")
      ("batching", po::value(&a.batching)->default_value("rows"),
       "rows (shuffled rows, like the paper), random (shuffled whole sources) or length "
       "(whole sources of similar lengths, fastest)")
      ("lstm", po::value(&a.lstm)->default_value("fast"), model::kLstmNamesHelp)
      ("threads", po::value(&a.request.train.lstmThreads)->default_value(model::usableHardwareThreads()),
       "threads of the fast LSTM (default: this machine's; the model does not depend on it)")
      ("seed", po::value(&a.request.train.seed)->default_value(204), "random seed")
      ("max-length", po::value(&a.request.maxLength)->default_value(1024), "keep the last N tokens")
      ("paper-padding", "pre-pad every sequence to --max-length (the paper's Keras input)")
      ("aux-scale", po::value(&a.request.auxScale)->default_value("raw"),
       "devmap: how the model reads transfer and wgsize: raw (the paper's) or log2")
      ("pooling", po::value(&a.request.pooling)->default_value("last"),
       "what the heads read of the LSTM: last (the paper's) or mean (over every token)")
      ("networks", po::value(&a.request.networks)->default_value(1),
       "deeptune: an ensemble of N networks (seeds SEED, SEED+1000, ...), their mean answers")
      ("boosted-head", "deeptune: each network answers through boosted trees on its pooled states")
      ("boosted-head-counts", "deeptune: the same, with each row's token counts beside the states");
  // clang-format on
  return options;
}

}  // namespace

int runTrain(const Args& args) {
  TrainArguments a;
  training::TrainRequest& request = a.request;
  po::options_description options = trainOptions(a);
  po::variables_map vm;
  if (!parseOptions(
          args,
          "usage: deeptune train --task devmap --data CSV -o MODEL [options]\n"
          "       deeptune train --task coarsening --data CSV --platform GPU -o MODEL [...]\n\n"
          "Trains a predictor on every row of CSV (devmap) or on every kernel of CSV,\n"
          "labelled by its fastest factor on GPU (coarsening), and writes a model file.",
          options, {}, vm)) {
    return kExitOk;
  }
  request.boostedHeadCounts = vm.count("boosted-head-counts") > 0;
  request.boostedHead = vm.count("boosted-head") > 0 || request.boostedHeadCounts;
  request.paperPadding = vm.count("paper-padding") > 0;
  request.sourceBoosted =
      training::sourceBoostedOptions(a.sourceFeatures, a.treeSettings, a.calibration, "train");
  training::checkTrainRequest(request);
  if (!request.fromPath.empty()) {
    request.fromPath = startingModelPath(request.fromPath, vm, "train");
  }
  request.train.batching = model::parseBatching(a.batching);
  request.train.lstm = model::parseLstm(a.lstm);
  data::checkOutputNotInput(
      a.output, {a.dataPath, request.vocabularyPath, request.transferPath, request.fromPath},
      data::OutputKind::kFile);
  data::checkOutputPath(a.output);  // before the training, not after it
  request.dataName = a.dataPath;
  request.command = commandLine("train", args);
  if (request.task == "devmap") {
    api::DevmapInput input = readDevmapData(a.dataPath);
    request.devmapRows = std::move(input.rows);
    request.devices = std::move(input.devices);
  } else {
    request.kernels = training::coarseningTrainingKernels(a.dataPath, request.platform);
  }
  data::ProgressPrinter printer;
  const training::TrainedModel trained =
      training::trainModel(request, training::printedTrainProgress(printer, request.networks));
  trained.save(a.output);
  std::printf("%s; wrote %s\n",
              trained.summaryLine(data::formatDuration(printer.elapsed())).c_str(),
              a.output.c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
