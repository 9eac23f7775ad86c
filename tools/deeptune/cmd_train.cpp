// deeptune train: trains the DeepTune device-mapping model on a labelled CSV and saves it.
#include <cstdio>

#include "data/datasets.hpp"
#include "data/file_io.hpp"
#include "model/compute_environment.hpp"
#include "model/devmap_data.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/progress.hpp"
#include "tools/deeptune/train_options.hpp"

namespace deeptune::cli {

model::TrainOptions::Batching parseBatching(const std::string& name) {
  if (name == "length") return model::TrainOptions::Batching::kSimilarLength;
  if (name == "random") return model::TrainOptions::Batching::kRandom;
  if (name == "rows") return model::TrainOptions::Batching::kRows;
  throw UsageError("unknown --batching '" + name + "' (rows, random or length)");
}

std::string batchingName(model::TrainOptions::Batching batching) {
  switch (batching) {
    case model::TrainOptions::Batching::kSimilarLength:
      return "length";
    case model::TrainOptions::Batching::kRandom:
      return "random";
    case model::TrainOptions::Batching::kRows:
      break;
  }
  return "rows";
}

int runTrain(const Args& args) {
  po::options_description options("train options");
  std::string task, dataPath, output, vocabPath;
  model::TrainOptions train;
  int maxLength = 1024;
  std::string batching;
  // clang-format off
  options.add_options()
      ("task", po::value(&task)->default_value("devmap"), "task: devmap")
      ("data", po::value(&dataPath)->required(), "labelled CSV (e.g. cgo17-amd.csv)")
      ("output,o", po::value(&output)->required(), "model file to write")
      ("vocab", po::value(&vocabPath), "vocabulary JSON (default: derived from the data's src)")
      ("epochs", po::value(&train.epochs)->default_value(50), "training epochs")
      ("batch-size", po::value(&train.batchSize)->default_value(64), "rows per batch")
      ("batching", po::value(&batching)->default_value("rows"),
       "rows (shuffled rows, like the paper), random (shuffled whole sources) or length "
       "(whole sources of similar lengths, fastest)")
      ("seed", po::value(&train.seed)->default_value(204), "random seed")
      ("max-length", po::value(&maxLength)->default_value(1024), "keep the last N tokens")
      ("paper-padding", "pre-pad every sequence to --max-length (the paper's Keras input)");
  // clang-format on
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune train --task devmap --data CSV -o MODEL [options]\n\n"
                    "Trains the DeepTune model on every row of CSV and writes a model file.",
                    options, {}, vm)) {
    return kExitOk;
  }
  if (task != "devmap") throw UsageError("train: unknown --task '" + task + "' (expected devmap)");
  if (train.epochs < 1 || train.batchSize < 1 || maxLength < 1) {
    throw UsageError("train: --epochs, --batch-size and --max-length must be positive");
  }
  train.batching = parseBatching(batching);
  data::checkOutputPath(output);  // before the training, not after it
  const auto rows = data::readDevmapCsv(dataPath);
  const tokenizer::Vocabulary vocabulary = vocabPath.empty()
                                               ? model::devmapVocabulary(rows, dataPath)
                                               : tokenizer::Vocabulary::load(vocabPath);
  model::DeepTuneModel network(
      model::devmapModelInfo(vocabulary, maxLength, vm.count("paper-padding") > 0), train.seed);
  network.info().dataFingerprint = model::devmapFingerprint(rows);
  network.info().trainingRows = static_cast<int>(rows.size());
  network.info().trainingCommand = commandLine("train", args);

  model::setComputeThreads(1);  // as evaluate: the result does not depend on the core count
  ProgressPrinter printer;
  const model::TrainingSummary summary = network.train(
      model::devmapExamples(rows, vocabulary, maxLength), train,
      [&](const model::EpochProgress& p) {
        char line[160];
        std::snprintf(line, sizeof line, "epoch %d/%d  loss %.4f  accuracy %.3f  %.1fs  ETA %s",
                      p.epoch, p.epochs, p.loss, p.accuracy, p.seconds,
                      formatDuration(p.seconds * (p.epochs - p.epoch)).c_str());
        printer.update(line, p.epoch == p.epochs);
      });
  if (summary.collapsed()) {
    char warning[200];
    std::snprintf(warning, sizeof warning,
                  "warning: training collapsed: accuracy ended %.1f points below its best epoch",
                  100 * (summary.bestAccuracy - summary.finalAccuracy));
    printer.update(warning, true);
  }
  network.save(output);
  std::printf(
      "trained on %zu rows in %s: training accuracy %.1f%% (best %.1f%% at epoch %d); "
      "wrote %s\n",
      rows.size(), formatDuration(printer.elapsed()).c_str(), 100 * summary.finalAccuracy,
      100 * summary.bestAccuracy, summary.bestEpoch, output.c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
