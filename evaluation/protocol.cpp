// Protocols: the fold assignments of both tasks (paper folds, grouped by source, leave one suite
// out, leave one kernel out, inner folds) and their leakage rules.
#include "evaluation/protocol.hpp"

#include <algorithm>
#include <cctype>
#include <random>
#include <set>
#include <unordered_map>

#include "evaluation/evaluation_error.hpp"

namespace deeptune::evaluation {
namespace {

/// A protocol whose folds are given, with the number of folds counted.
Protocol withFolds(std::string name, std::vector<int> foldOfRow, std::string description) {
  Protocol protocol;
  protocol.name = std::move(name);
  protocol.foldOfRow = std::move(foldOfRow);
  protocol.description = std::move(description);
  protocol.folds =
      protocol.foldOfRow.empty()
          ? 0
          : *std::max_element(protocol.foldOfRow.begin(), protocol.foldOfRow.end()) + 1;
  return protocol;
}

}  // namespace

FoldRows Protocol::rowsOf(int fold) const {
  if (fold < 0 || fold >= folds) {
    throw EvaluationError("protocol " + name + ": no fold " + std::to_string(fold));
  }
  FoldRows rows;
  for (size_t i = 0; i < foldOfRow.size(); ++i) {
    (foldOfRow[i] == fold ? rows.test : rows.train).push_back(i);
  }
  return rows;
}

Protocol devmapProtocol(const std::string& name, const std::vector<data::DevmapRow>& rows,
                        const std::string& foldsPath, uint64_t seed) {
  Protocol protocol;
  if (name == "folds") {
    if (foldsPath.empty()) throw EvaluationError("--protocol folds needs a folds file (--folds)");
    protocol.foldOfRow = foldOfRows(rows, data::readFoldsCsv(foldsPath));
    protocol.description = "cross-validation on the folds of " + foldsPath;
  } else if (name == "suite") {
    protocol.foldOfRow = foldsBySuite(rows);
    protocol.description = "leave one suite out";
  } else if (name == "kernel") {
    // 10 folds, or one per source for data of fewer sources (a small measured set)
    std::set<std::string> sources;
    for (const data::DevmapRow& row : rows) sources.insert(row.src);
    const int k = static_cast<int>(std::min<size_t>(10, sources.size()));
    protocol.foldOfRow = foldsByKernel(rows, k, seed);
    protocol.description =
        std::to_string(k) + " folds grouped by kernel source (no source in both train and test)";
  } else {
    throw EvaluationError("unknown protocol '" + name + "' (folds, suite, kernel)");
  }
  protocol.name = name;
  protocol.vocabularyPerFold = name != "folds";
  if (protocol.foldOfRow.empty()) throw EvaluationError("no rows to evaluate");
  protocol.folds = *std::max_element(protocol.foldOfRow.begin(), protocol.foldOfRow.end()) + 1;
  return protocol;
}

std::string Protocol::whatMethodsSaw() const {
  return evaluation::whatMethodsSaw(vocabularyPerFold);
}

std::string whatMethodsSaw(bool vocabularyPerFold) {
  return "what each method saw: the training folds' rows only (labels, counts, sizes, sources); " +
         std::string(vocabularyPerFold
                         ? "DeepTune's vocabulary derived from each fold's training sources"
                         : "DeepTune's vocabulary derived from every source of the data (the "
                           "paper's; tokens only, no labels)");
}

Protocol leaveOneKernelOut(size_t kernels) {
  if (kernels < 2) {
    throw EvaluationError(std::to_string(kernels) +
                          " kernels, leave-one-kernel-out needs at least 2");
  }
  std::vector<int> foldOfRow(kernels);
  for (size_t k = 0; k < kernels; ++k) foldOfRow[k] = static_cast<int>(k);
  return withFolds("leave-one-kernel-out", std::move(foldOfRow), "leave one kernel out");
}

Protocol interleavedFolds(size_t count, int k) {
  if (count == 0 || k < 2) throw EvaluationError("inner folds: k >= 2 over at least one item");
  const size_t folds = std::min(static_cast<size_t>(k), count);
  std::vector<int> foldOfRow(count);
  for (size_t i = 0; i < count; ++i) foldOfRow[i] = static_cast<int>(i % folds);
  return withFolds("interleaved", std::move(foldOfRow),
                   std::to_string(folds) + " interleaved inner folds");
}

namespace {

/// `source` with its layout dropped: every run of whitespace one space, none at either end (a
/// copy that differs only by a trailing newline or indentation is the same program).
std::string withoutLayout(const std::string& source) {
  std::string text;
  bool space = false;
  for (char c : source) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !text.empty();
      continue;
    }
    if (space) text += ' ';
    space = false;
    text += c;
  }
  return text;
}

}  // namespace

std::vector<std::string> pretrainingSources(const std::vector<std::string>& candidates,
                                            const std::vector<std::string>& evaluatedSources,
                                            size_t& excluded) {
  std::set<std::string> evaluated;
  for (const std::string& source : evaluatedSources) evaluated.insert(withoutLayout(source));
  std::vector<std::string> kept;
  excluded = 0;
  for (const std::string& source : candidates) {
    if (evaluated.count(withoutLayout(source)) != 0) {
      ++excluded;
    } else {
      kept.push_back(source);
    }
  }
  return kept;
}

std::vector<int> foldOfRows(const std::vector<data::DevmapRow>& rows,
                            const std::vector<data::FoldRow>& folds) {
  std::unordered_map<int, size_t> rowOfIndex;
  for (size_t i = 0; i < rows.size(); ++i) rowOfIndex.emplace(rows[i].index, i);

  std::vector<int> result(rows.size(), -1);
  for (size_t f = 0; f < folds.size(); ++f) {
    const data::FoldRow& entry = folds[f];
    const std::string where =
        "folds row " + std::to_string(f + 1) + " (index " + std::to_string(entry.index) + ")";
    const auto found = rowOfIndex.find(entry.index);
    if (found == rowOfIndex.end()) throw EvaluationError(where + ": no data row has this index");
    const data::DevmapRow& row = rows[found->second];
    if (entry.benchmark != row.benchmark || entry.dataset != row.dataset) {
      throw EvaluationError(where + ": names " + entry.benchmark + " / " + entry.dataset +
                            " but the data row is " + row.benchmark + " / " + row.dataset);
    }
    if (result[found->second] >= 0) throw EvaluationError(where + ": index given twice");
    if (entry.fold < 0) throw EvaluationError(where + ": negative fold");
    result[found->second] = entry.fold;
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    if (result[i] < 0) {
      throw EvaluationError("folds: no entry for data row index " + std::to_string(rows[i].index) +
                            " (" + rows[i].benchmark + " / " + rows[i].dataset + ")");
    }
  }
  return result;
}

std::vector<std::string> suitesInFoldOrder(const std::vector<data::DevmapRow>& rows) {
  std::vector<std::string> suites;
  for (const data::DevmapRow& row : rows)
    suites.push_back(data::parseBenchmarkName(row.benchmark).suite);
  std::sort(suites.begin(), suites.end());
  suites.erase(std::unique(suites.begin(), suites.end()), suites.end());
  return suites;
}

std::vector<int> foldsBySuite(const std::vector<data::DevmapRow>& rows) {
  const std::vector<std::string> suites = suitesInFoldOrder(rows);
  std::vector<int> result;
  result.reserve(rows.size());
  for (const data::DevmapRow& row : rows) {
    const std::string suite = data::parseBenchmarkName(row.benchmark).suite;
    result.push_back(
        static_cast<int>(std::lower_bound(suites.begin(), suites.end(), suite) - suites.begin()));
  }
  return result;
}

std::vector<int> foldsByKernel(const std::vector<data::DevmapRow>& rows, int k, uint64_t seed) {
  // Groups of rows sharing a source, in order of first appearance.
  std::unordered_map<std::string, size_t> groupOfSrc;
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto inserted = groupOfSrc.emplace(rows[i].src, groups.size());
    if (inserted.second) groups.emplace_back();
    groups[inserted.first->second].push_back(i);
  }
  if (k < 2 || static_cast<size_t>(k) > groups.size()) {
    throw EvaluationError("grouped folds: k = " + std::to_string(k) +
                          " must be between 2 and the " + std::to_string(groups.size()) +
                          " distinct kernel sources");
  }
  // Fisher-Yates with mt19937_64 (whose output the standard fixes), not std::shuffle (whose
  // algorithm is implementation-defined), so the folds are the same with every standard library.
  std::mt19937_64 random(seed);
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random() % i]);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return groups[a].size() > groups[b].size(); });

  std::vector<size_t> foldSize(static_cast<size_t>(k), 0);
  std::vector<int> result(rows.size(), 0);
  for (size_t g : order) {
    const size_t fold =
        static_cast<size_t>(std::min_element(foldSize.begin(), foldSize.end()) - foldSize.begin());
    foldSize[fold] += groups[g].size();
    for (size_t row : groups[g]) result[row] = static_cast<int>(fold);
  }
  return result;
}

}  // namespace deeptune::evaluation
