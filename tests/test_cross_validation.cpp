// Tests of cross-validation: coverage, disjoint train/test sets, threads, grouped folds, errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "baselines/grewe_tree.hpp"
#include "baselines/static_mapping.hpp"
#include "data/datasets.hpp"
#include "evaluation/cross_validation.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/protocol.hpp"
#include "tests/test_paths.hpp"

namespace ev = deeptune::evaluation;
namespace bl = deeptune::baselines;
namespace dd = deeptune::data;

namespace {

std::vector<dd::DevmapRow> paperRows(const std::string& platform) {
  return dd::readDevmapCsv(deeptune::test::paperDataDir() + "/cgo17-" + platform + ".csv");
}

/// A predictor that records what it saw and answers from the train set's size and the row.
struct Recorder {
  std::mutex mutex;
  std::map<int, std::pair<std::vector<size_t>, std::vector<size_t>>> seen;  // fold -> train, test

  deeptune::data::DevmapPredictor predictor() {
    return [this](const std::vector<size_t>& train, const std::vector<size_t>& test, int fold) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        seen[fold] = {train, test};
      }
      std::vector<std::string> out;
      for (size_t row : test) out.push_back((row + train.size()) % 3 == 0 ? "GPU" : "CPU");
      return out;
    };
  }
};

}  // namespace

TEST_CASE("cross-validation: every row once, train and test disjoint", "[cv]") {
  const std::vector<int> folds = {2, 0, 1, 2, 2, 0, 1, 1, 0, 5};
  Recorder recorder;
  const auto predicted = ev::crossValidate(folds.size(), folds, recorder.predictor()).devices;
  REQUIRE(predicted.size() == folds.size());
  REQUIRE(recorder.seen.size() == 4);
  std::multiset<size_t> tested;
  for (const auto& [fold, sets] : recorder.seen) {
    const auto& [train, test] = sets;
    CHECK(train.size() + test.size() == folds.size());
    CHECK(std::is_sorted(train.begin(), train.end()));
    CHECK(std::is_sorted(test.begin(), test.end()));
    for (size_t row : test) {
      CHECK(folds[row] == fold);
      tested.insert(row);
      CHECK(predicted[row] == ((row + train.size()) % 3 == 0 ? "GPU" : "CPU"));
    }
    for (size_t row : train) CHECK(folds[row] != fold);
  }
  CHECK(tested.size() == folds.size());
  CHECK(std::set<size_t>(tested.begin(), tested.end()).size() == folds.size());
}

TEST_CASE("cross-validation: workers give the same result as one thread", "[cv]") {
  const auto rows = paperRows("amd");
  const auto folds =
      ev::foldOfRows(rows, dd::readFoldsCsv(deeptune::test::paperDataDir() + "/folds-amd.csv"));
  const auto predictor = bl::greweTreePredictor(rows);
  const auto one = ev::crossValidate(rows.size(), folds, predictor, 1).devices;
  CHECK(ev::crossValidate(rows.size(), folds, predictor, 2).devices == one);
  CHECK(ev::crossValidate(rows.size(), folds, predictor, 16).devices ==
        one);  // more workers than folds
}

TEST_CASE("cross-validation: errors", "[cv]") {
  const std::vector<int> folds = {0, 1, 0, 1, 2, 2};
  Recorder recorder;
  CHECK_THROWS_AS(ev::crossValidate(5, folds, recorder.predictor()), ev::EvaluationError);
  CHECK_THROWS_AS(ev::crossValidate(3, {0, 0, 0}, recorder.predictor()), ev::EvaluationError);
  CHECK_THROWS_AS(ev::crossValidate(2, {0, -1}, recorder.predictor()), ev::EvaluationError);
  CHECK_THROWS_AS(ev::crossValidate(6, folds, recorder.predictor(), 0), ev::EvaluationError);

  const deeptune::data::DevmapPredictor shortAnswer = [](const auto&, const auto&, int) {
    return std::vector<std::string>{};
  };
  CHECK_THROWS_AS(ev::crossValidate(6, folds, shortAnswer), ev::EvaluationError);
  const deeptune::data::DevmapPredictor badLabel = [](const auto&, const std::vector<size_t>& test,
                                                      int) {
    return std::vector<std::string>(test.size(), "TPU");
  };
  CHECK_THROWS_WITH(ev::crossValidate(6, folds, badLabel), Catch::Contains("'TPU'"));

  // A predictor's own exception comes back after the threads joined; the lowest fold's wins.
  const deeptune::data::DevmapPredictor throwing = [](const auto&, const std::vector<size_t>& test,
                                                      int fold) {
    if (fold >= 1) throw std::runtime_error("fold " + std::to_string(fold) + " failed");
    return std::vector<std::string>(test.size(), "CPU");
  };
  for (int workers : {1, 2, 3}) {
    CHECK_THROWS_WITH(ev::crossValidate(6, folds, throwing, workers), "fold 1 failed");
  }
}

TEST_CASE("grouped folds: leave one suite out", "[cv][grouped]") {
  const auto rows = paperRows("amd");
  const auto folds = ev::foldsBySuite(rows);
  const auto suites = ev::suitesInFoldOrder(rows);
  REQUIRE(suites.size() == 7);
  CHECK(suites.front() == "amd-app-sdk");
  for (size_t i = 0; i < rows.size(); ++i) {
    CHECK(suites.at(static_cast<size_t>(folds[i])) ==
          dd::parseBenchmarkName(rows[i].benchmark).suite);
  }
  const auto predicted = ev::crossValidate(rows.size(), folds, bl::staticMappingPredictor(rows), 2);
  CHECK(predicted.devices.size() == rows.size());
  CHECK(predicted.gpuProbability.empty());  // the static mapping has no probability
}

TEST_CASE("grouped folds: by kernel source, no source in two folds", "[cv][grouped]") {
  const auto rows = paperRows("nvidia");
  const auto folds = ev::foldsByKernel(rows, 10, 204);
  REQUIRE(folds.size() == rows.size());
  std::map<std::string, int> foldOfSrc;
  std::map<int, size_t> sizes;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto inserted = foldOfSrc.emplace(rows[i].src, folds[i]);
    CHECK(inserted.first->second == folds[i]);
    ++sizes[folds[i]];
  }
  CHECK(foldOfSrc.size() == 247);
  REQUIRE(sizes.size() == 10);
  for (const auto& [fold, size] : sizes) {
    CHECK(fold >= 0);
    CHECK(fold < 10);
    CHECK(size >= 50);  // balanced: 68 rows per fold on average
    CHECK(size <= 90);
  }
  CHECK(ev::foldsByKernel(rows, 10, 204) == folds);  // deterministic
  CHECK(ev::foldsByKernel(rows, 10, 7) != folds);    // the seed matters

  // Train and test never share a source in the runs.
  const deeptune::data::DevmapPredictor check = [&](const std::vector<size_t>& train,
                                                    const std::vector<size_t>& test, int) {
    std::set<std::string> trainSrc;
    for (size_t row : train) trainSrc.insert(rows[row].src);
    for (size_t row : test) CHECK(trainSrc.count(rows[row].src) == 0);
    return std::vector<std::string>(test.size(), "GPU");
  };
  ev::crossValidate(rows.size(), folds, check);

  CHECK_THROWS_AS(ev::foldsByKernel(rows, 1, 0), ev::EvaluationError);
  CHECK_THROWS_AS(ev::foldsByKernel(rows, 248, 0), ev::EvaluationError);
  CHECK(ev::foldsByKernel(rows, 247, 0).size() == rows.size());
}

TEST_CASE("training subsets keep whole sources, as many as asked, the same every time", "[cv]") {
  std::vector<dd::DevmapRow> rows(40);
  for (size_t i = 0; i < rows.size(); ++i) rows[i].src = "source " + std::to_string(i % 10);
  std::map<int, std::set<std::string>> seen;
  std::mutex seenMutex;
  const ev::DevmapPredictor inner = [&](const std::vector<size_t>& train,
                                        const std::vector<size_t>& test, int fold) {
    std::lock_guard<std::mutex> lock(seenMutex);
    for (size_t row : train) seen[fold].insert(rows[row].src);
    for (size_t row : test) CHECK(seen[fold].count(rows[row].src) == 0);
    // every row of a kept source is kept
    std::map<std::string, int> count;
    for (size_t row : train) ++count[rows[row].src];
    for (const auto& [source, n] : count) CHECK(n == 4);
    return std::vector<std::string>(test.size(), "CPU");
  };
  std::vector<int> foldOfRow(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) foldOfRow[i] = static_cast<int>(i % 10) / 5;  // 2 folds
  ev::crossValidate(rows.size(), foldOfRow, ev::withTrainingSubset(inner, rows, {3, 7}));
  REQUIRE(seen.size() == 2);
  for (const auto& [fold, sources] : seen) CHECK(sources.size() == 3);
  const auto first = seen;
  seen.clear();
  ev::crossValidate(rows.size(), foldOfRow, ev::withTrainingSubset(inner, rows, {3, 7}));
  CHECK(seen == first);
  seen.clear();
  ev::crossValidate(rows.size(), foldOfRow, ev::withTrainingSubset(inner, rows, {0, 7}));
  for (const auto& [fold, sources] : seen) CHECK(sources.size() == 5);  // 0: every source
}
