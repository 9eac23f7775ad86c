// Tests of the protocols (evaluation/protocol.hpp): each builds its folds and states its leakage
// rule; coarsening's leave-one-kernel-out and inner folds; what pretraining may not see.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "evaluation/evaluation_error.hpp"
#include "evaluation/protocol.hpp"
#include "tests/paper_rows.hpp"
#include "tests/test_paths.hpp"

using namespace deeptune::evaluation;
using Catch::Matchers::Contains;

namespace {

const std::vector<deeptune::data::DevmapRow>& amdRows() { return deeptune::test::amdPaperRows(); }

}  // namespace

TEST_CASE("protocol: the leakage rule belongs to the protocol", "[protocol]") {
  const auto& rows = amdRows();
  const std::string folds = deeptune::test::paperDataDir() + "/folds-amd.csv";
  CHECK_FALSE(devmapProtocol("folds", rows, folds, 204).vocabularyPerFold);
  CHECK(devmapProtocol("suite", rows, "", 204).vocabularyPerFold);
  CHECK(devmapProtocol("kernel", rows, "", 204).vocabularyPerFold);
  CHECK_THAT(devmapProtocol("kernel", rows, "", 204).whatMethodsSaw(),
             Contains("derived from each fold's training sources"));
  CHECK_THAT(devmapProtocol("folds", rows, folds, 204).whatMethodsSaw(),
             Contains("every source of the data"));
  CHECK(devmapProtocol("suite", rows, "", 204).name == "suite");
}

TEST_CASE("protocol: a fold's rows are its test rows and every other row", "[protocol]") {
  const Protocol kernel = devmapProtocol("kernel", amdRows(), "", 204);
  std::set<size_t> tested;
  for (int f = 0; f < kernel.folds; ++f) {
    const FoldRows rows = kernel.rowsOf(f);
    CHECK(rows.train.size() + rows.test.size() == amdRows().size());
    std::set<std::string> trainSources;
    for (size_t i : rows.train) trainSources.insert(amdRows()[i].src);
    for (size_t i : rows.test) {
      CHECK(kernel.foldOfRow[i] == f);
      CHECK(trainSources.count(amdRows()[i].src) == 0);  // grouped: no source on both sides
      CHECK(tested.insert(i).second);
    }
  }
  CHECK(tested.size() == amdRows().size());
  CHECK_THROWS_AS(kernel.rowsOf(kernel.folds), EvaluationError);
  CHECK_THROWS_AS(kernel.rowsOf(-1), EvaluationError);
}

TEST_CASE("protocol: leave one kernel out, and the inner folds", "[protocol]") {
  const Protocol loko = leaveOneKernelOut(4);
  CHECK(loko.folds == 4);
  CHECK_FALSE(loko.vocabularyPerFold);
  const FoldRows second = loko.rowsOf(1);
  CHECK(second.test == std::vector<size_t>{1});
  CHECK(second.train == std::vector<size_t>{0, 2, 3});
  CHECK_THROWS_AS(leaveOneKernelOut(1), EvaluationError);

  const Protocol inner = interleavedFolds(7, 3);
  CHECK(inner.folds == 3);
  CHECK(inner.rowsOf(0).test == std::vector<size_t>{0, 3, 6});
  CHECK(inner.rowsOf(2).test == std::vector<size_t>{2, 5});
  CHECK(interleavedFolds(2, 5).folds == 2);  // never more folds than items
  CHECK_THROWS_AS(interleavedFolds(3, 1), EvaluationError);
  CHECK_THROWS_AS(interleavedFolds(0, 2), EvaluationError);
}

TEST_CASE("protocol: pretraining never sees an evaluated source", "[protocol]") {
  size_t excluded = 99;
  const auto kept = pretrainingSources({"a", "b", "a", "c"}, {"b", "x"}, excluded);
  CHECK(kept == std::vector<std::string>{"a", "a", "c"});
  CHECK(excluded == 1);
  CHECK(pretrainingSources({"b"}, {"b"}, excluded).empty());
  CHECK(excluded == 1);
  // MatrixTranspose's case (issue 41): the evaluated source plus a newline, or re-indented.
  CHECK(pretrainingSources({"k(x) {\n  y;\n}\n", "k(x) { y; }", "k(x) {y;}"}, {"k(x) {\n  y;\n}"},
                           excluded) == std::vector<std::string>{"k(x) {y;}"});
  CHECK(excluded == 2);
}
