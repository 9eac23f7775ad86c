// Tests of what evaluate runs (evaluation/evaluation_plan.hpp,
// evaluation/coarsening_training_log.hpp): protocols, method lists, baselines, the report folder,
// the resumable coarsening training log.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "evaluation/coarsening_training_log.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/evaluation_plan.hpp"
#include "tests/paper_rows.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_paths.hpp"

using namespace deeptune::evaluation;
using namespace deeptune::data;
using Catch::Matchers::Contains;

namespace {

const std::vector<deeptune::data::DevmapRow>& amdRows() { return deeptune::test::amdPaperRows(); }

}  // namespace

TEST_CASE("evaluation plan: the three protocols", "[evaluation]") {
  const auto& rows = amdRows();
  const Protocol folds =
      devmapProtocol("folds", rows, deeptune::test::paperDataDir() + "/folds-amd.csv", 204);
  CHECK(folds.folds == 10);
  CHECK(folds.foldOfRow.size() == rows.size());
  CHECK_THAT(folds.description, Contains("folds-amd.csv"));
  const Protocol suite = devmapProtocol("suite", rows, "", 204);
  CHECK(suite.description == "leave one suite out");
  CHECK(suite.folds == 7);                    // the seven benchmark suites of the paper
  for (size_t r = 1; r < rows.size(); ++r) {  // a suite's rows share a fold
    if (rows[r].benchmark.substr(0, 8) == rows[r - 1].benchmark.substr(0, 8)) {
      CHECK(suite.foldOfRow[r] == suite.foldOfRow[r - 1]);
    }
  }
  const Protocol kernel = devmapProtocol("kernel", rows, "", 204);
  CHECK(kernel.folds == 10);
  std::map<std::string, std::set<int>> foldsOfSource;
  for (size_t r = 0; r < rows.size(); ++r) foldsOfSource[rows[r].src].insert(kernel.foldOfRow[r]);
  for (const auto& [source, in] : foldsOfSource) CHECK(in.size() == 1);
  CHECK_THROWS_WITH(devmapProtocol("folds", rows, "", 204), Contains("needs a folds file"));
  CHECK_THROWS_WITH(devmapProtocol("random", rows, "", 204),
                    "unknown protocol 'random' (folds, suite, kernel)");
}

TEST_CASE("evaluation plan: method lists are checked before any training", "[evaluation]") {
  CHECK(selectMethods("grewe,static", devmapMethods(), "devmap") ==
        std::vector<std::string>{"grewe", "static"});
  CHECK_THROWS_WITH(selectMethods("static,magic", devmapMethods(), "devmap"),
                    "unknown method 'magic' for devmap (static, grewe, hand-tree, memory, "
                    "hand-boosted, token-boosted, source-boosted, shipped, deeptune)");
  CHECK_THROWS_WITH(selectMethods("static,,grewe", devmapMethods(), "devmap"),
                    Contains("unknown method ''"));
  CHECK_THROWS_WITH(selectMethods("", devmapMethods(), "devmap"), "--methods names no method");
  CHECK(selectMethods("magni,deeptune-tl", coarseningMethods(), "coarsening").size() == 2);
  CHECK_THROWS_AS(selectMethods("grewe", coarseningMethods(), "coarsening"), EvaluationError);
}

TEST_CASE("evaluation plan: the baselines' predictions", "[evaluation]") {
  const auto& rows = amdRows();
  const Protocol plan = devmapProtocol("suite", rows, "", 204);
  const MethodPredictions grewe =
      crossValidateMethod("grewe", rows, plan, baselinePredictor("grewe", rows));
  CHECK(grewe.name == "grewe");
  REQUIRE(grewe.devices.size() == rows.size());
  for (const std::string& device : grewe.devices) CHECK((device == "CPU" || device == "GPU"));
  const MethodPredictions fixed =
      crossValidateMethod("static", rows, plan, baselinePredictor("static", rows));
  for (size_t r = 1; r < rows.size(); ++r) {  // one device per held-out fold
    if (plan.foldOfRow[r] == plan.foldOfRow[r - 1]) CHECK(fixed.devices[r] == fixed.devices[r - 1]);
  }
  CHECK_THROWS_AS(baselinePredictor("deeptune", rows), EvaluationError);
}

TEST_CASE("evaluation plan: the report folder is made, or refused, up front", "[evaluation]") {
  const deeptune::test::ScratchDir dir("deeptune-plan");
  prepareReportFolder((dir.path / "a" / "b").string());
  CHECK(std::filesystem::is_directory(dir.path / "a" / "b"));
  const std::string file = dir.file("taken", "x");
  CHECK_THROWS_WITH(prepareReportFolder(file), Contains("cannot create the report folder"));
}

TEST_CASE("coarsening training log: resumes rows of the same settings only", "[evaluation]") {
  const deeptune::test::ScratchDir dir("deeptune-training-log");
  const std::string path = (dir.path / "trainings.partial.csv").string();
  CoarseningPrediction p;
  p.device = "Tahiti";
  p.method = "deeptune";
  p.run = 1;
  p.kernel = "mt";
  p.factor = 4;
  {
    CoarseningTrainingLog log(path, "settings-a");
    CHECK(log.kept() == 0);
    log.add(p);
  }
  {
    CoarseningTrainingLog same(path, "settings-a");
    REQUIRE(same.kept() == 1);
    CHECK(same.predictions()[0].kernel == "mt");
    CHECK(same.predictions()[0].factor == 4);
    CHECK(same.predictions()[0].run == 1);
  }
  CoarseningTrainingLog other(path, "settings-b");
  CHECK(other.kept() == 0);
  other.remove();
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("coarsening oracles: runtimes that disagree with the oracles are refused",
          "[evaluation]") {
  const auto rows = deeptune::data::readCoarseningRuntimesCsv(deeptune::test::paperDataDir() +
                                                              "/pact-2014-runtimes.csv");
  const std::string oracles = deeptune::test::paperDataDir() + "/pact-2014-oracles.csv";
  std::vector<std::vector<CoarseningKernel>> kernels = {coarseningKernels(rows, "Tahiti")};
  CHECK_NOTHROW(checkCoarseningOracles(oracles, {"Tahiti"}, kernels));
  kernels[0][0].bestFactor = kernels[0][0].bestFactor == 1 ? 2 : 1;  // a mismatched pair
  CHECK_THROWS_WITH(checkCoarseningOracles(oracles, {"Tahiti"}, kernels),
                    Contains("kernel '" + kernels[0][0].kernel + "' on Tahiti: best factor"));
}
