// deeptune pretrain: trains DeepTune's language model on unlabelled kernels, once, into a file.
#include <cstdio>

#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "data/progress_printer.hpp"
#include "model/compute_environment.hpp"
#include "tools/deeptune/commands.hpp"
#include "training/language_model_pretraining.hpp"

namespace deeptune::cli {

int runPretrain(const Args& args) {
  training::PretrainRequest request;
  std::vector<std::string> corpora, excludedCsvs;
  std::string vocabularyPath, curvePath;
  po::options_description options("pretrain options");
  // clang-format off
  options.add_options()
      ("corpus", po::value(&corpora)->required(), "folder of normalized kernels (.cl, subfolders "
       "too; scripts/normalize-corpus.py writes build/corpus/kernels); may repeat")
      ("exclude", po::value(&excludedCsvs), "labelled CSV whose src kernels are kept out (e.g. "
       "cgo17-amd.csv); may repeat")
      ("vocab", po::value(&vocabularyPath), "vocabulary JSON (default: derived from the corpus)")
      ("epochs", po::value(&request.options.epochs)->default_value(30), "passes over the corpus")
      ("batch-size", po::value(&request.options.batchSize)->default_value(32), "kernels per batch")
      ("learning-rate", po::value(&request.options.learningRate)->default_value(1e-2), "Adam's")
      ("held-out", po::value(&request.heldOutShare)->default_value(0.05),
       "share of kernels (by a hash of the text) scored after each epoch, never trained on")
      ("max-length", po::value(&request.maxLength)->default_value(1024), "keep the last N tokens")
      ("lstm-size", po::value(&request.lstmSize)->default_value(64),
       "hidden units of each LSTM layer (64: the paper's; a multiple of 32)")
      ("seed", po::value(&request.options.seed)->default_value(204), "random seed")
      ("threads", po::value(&request.options.lstmThreads)->default_value(model::usableHardwareThreads()),
       "threads of the fast LSTM (the model does not depend on it)")
      ("curve", po::value(&curvePath), "also write the loss per epoch as CSV")
      ("output,o", po::value(&request.outputPath)->required(), "model file to write");
  // clang-format on
  po::variables_map vm;
  if (!parseOptions(args,
                    "usage: deeptune pretrain --corpus DIR -o MODEL [options]\n\n"
                    "Trains DeepTune's embedding and LSTM to predict each next token of the\n"
                    "corpus's kernels and writes them as a language model, which `train --from`\n"
                    "and `evaluate --from` fine-tune on labelled data.",
                    options, {}, vm)) {
    return kExitOk;
  }
  data::checkOutputNotInput(request.outputPath, {vocabularyPath}, data::OutputKind::kFile);
  data::checkOutputPath(request.outputPath);
  if (!curvePath.empty()) data::checkOutputPath(curvePath);
  try {
    training::readPretrainInputs(request, corpora, excludedCsvs, vocabularyPath);
  } catch (const data::DataError& e) {
    throw UsageError("pretrain: " + std::string(e.what()));
  }
  request.command = commandLine("pretrain", args);
  training::checkPretrainRequest(request);
  data::ProgressPrinter printer;
  const training::PretrainResult result = training::pretrainLanguageModel(
      request, training::printedPretrainProgress(printer, request.options.epochs));
  if (!curvePath.empty()) data::writeFileAtomically(curvePath, training::pretrainCurveCsv(result));
  std::puts(training::pretrainSummaryLine(result, request.outputPath, printer.elapsed()).c_str());
  return kExitOk;
}

}  // namespace deeptune::cli
