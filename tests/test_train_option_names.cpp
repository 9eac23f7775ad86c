// Tests of the training option names train and evaluate share (model/train_option_names.hpp).
#include <catch2/catch.hpp>
#include <string>

#include "model/model_error.hpp"
#include "model/train_option_names.hpp"

using namespace deeptune::model;

TEST_CASE("training option names read back what they print", "[options]") {
  for (const char* name : {"rows", "random", "length"}) {
    CHECK(batchingName(parseBatching(name)) == name);
  }
  CHECK(parseBatching("length") == TrainOptions::Batching::kSimilarLength);
  for (const char* name : {"fast", "stock"}) CHECK(lstmName(parseLstm(name)) == name);
  CHECK(parseLstm("stock") == TrainOptions::Lstm::kStock);
  CHECK_THROWS_AS(parseBatching("Rows"), ModelError);
  CHECK_THROWS_WITH(parseLstm("slow"), "unknown --lstm 'slow' (fast or stock)");
}
