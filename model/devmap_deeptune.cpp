// DeepTune as a device-mapping method for cross-validation: train on a fold, predict the rest.
#include "model/devmap_deeptune.hpp"

#include <memory>

#include "model/devmap_data.hpp"

namespace deeptune::model {

DevmapPredictor deeptunePredictor(const std::vector<data::DevmapRow>& rows,
                                  const tokenizer::Vocabulary& vocabulary,
                                  const DeepTuneMethodOptions& options,
                                  FoldProgressCallback progress) {
  // Encoded once, shared read-only by the folds' threads.
  auto examples = std::make_shared<const std::vector<Example>>(
      devmapExamples(rows, vocabulary, options.maxLength));
  const ModelInfo info = devmapModelInfo(vocabulary, options.maxLength, options.paperPadding);
  return [examples, info, options, progress](const std::vector<size_t>& trainRows,
                                             const std::vector<size_t>& testRows, int fold) {
    std::vector<Example> train, test;
    for (size_t row : trainRows) train.push_back((*examples)[row]);
    for (size_t row : testRows) test.push_back((*examples)[row]);
    TrainOptions trainOptions = options.train;
    trainOptions.seed = options.train.seed + static_cast<uint64_t>(fold);
    DeepTuneModel model(info, trainOptions.seed);
    model.train(train, trainOptions, [&](const EpochProgress& epoch) {
      if (progress) progress(fold, epoch);
    });
    std::vector<std::string> devices;
    for (const auto& probabilities : model.predict(test)) {
      devices.push_back(probabilities[1] > probabilities[0] ? "GPU" : "CPU");
    }
    return devices;
  };
}

}  // namespace deeptune::model
