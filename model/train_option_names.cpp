// The names of the training options that train and evaluate take (--batching, --lstm), both ways.
#include "model/train_option_names.hpp"

#include "model/model_error.hpp"

namespace deeptune::model {

TrainOptions::Batching parseBatching(const std::string& name) {
  if (name == "length") return TrainOptions::Batching::kSimilarLength;
  if (name == "random") return TrainOptions::Batching::kRandom;
  if (name == "rows") return TrainOptions::Batching::kRows;
  throw ModelError("unknown --batching '" + name + "' (rows, random or length)");
}

std::string batchingName(TrainOptions::Batching batching) {
  switch (batching) {
    case TrainOptions::Batching::kSimilarLength:
      return "length";
    case TrainOptions::Batching::kRandom:
      return "random";
    case TrainOptions::Batching::kRows:
      break;
  }
  return "rows";
}

TrainOptions::Lstm parseLstm(const std::string& name) {
  if (name == "fast") return TrainOptions::Lstm::kFast;
  if (name == "stock") return TrainOptions::Lstm::kStock;
  throw ModelError("unknown --lstm '" + name + "' (fast or stock)");
}

std::string lstmName(TrainOptions::Lstm lstm) {
  return lstm == TrainOptions::Lstm::kStock ? "stock" : "fast";
}

}  // namespace deeptune::model
