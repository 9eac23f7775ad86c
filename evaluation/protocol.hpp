// Protocols: which fold tests each row and what a method may see of the rest, for both tasks
// (scikit-learn's splitters: a protocol yields train and test rows; methods never see it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "evaluation/cross_validation.hpp"

namespace deeptune::evaluation {

/// The training and test rows of one fold (ascending indices).
struct FoldRows {
  std::vector<size_t> train, test;
};

/// A protocol over `foldOfRow.size()` rows: fold f tests the rows with foldOfRow == f and trains
/// on all others; rows of one group (a source, a suite, a kernel) always share a fold.
struct Protocol {
  std::string name;  ///< folds, suite, kernel, leave-one-kernel-out, interleaved
  std::vector<int> foldOfRow;
  int folds = 0;
  std::string description;  ///< for reports, e.g. "leave one suite out"
  TrainingSubset subset;    ///< learning curves: the training sources each fold keeps
  /// The leakage rule. Under the grouped protocols nothing of a test source may reach training,
  /// so each fold derives its own vocabulary from its training sources; the paper's folds and
  /// leave-one-kernel-out keep the paper's (every source of the data: tokens only, no labels).
  bool vocabularyPerFold = false;

  /// Fold f's rows. Throws EvaluationError for a fold out of range.
  FoldRows rowsOf(int fold) const;
  /// The report's sentence on what each method saw (whatMethodsSaw(vocabularyPerFold)).
  std::string whatMethodsSaw() const;
};

/// The report's sentence on what each method saw, DeepTune's vocabulary derived per fold or not
/// (a method starting from a model keeps that model's, whatever the protocol).
std::string whatMethodsSaw(bool vocabularyPerFold);

/// Device-mapping protocol `name`: "folds" (the assignment of `foldsPath`, e.g. folds-amd.csv),
/// "suite" (leave one suite out) or "kernel" (10 folds grouped by kernel source, shuffled with
/// `seed`; one per source for data of fewer sources). Throws EvaluationError for another name or
/// "folds" without a file; data::DataError for a bad folds file.
Protocol devmapProtocol(const std::string& name, const std::vector<data::DevmapRow>& rows,
                        const std::string& foldsPath, uint64_t seed);

/// Thread coarsening's protocol, and Magni's inner one: leave one kernel out over `kernels`
/// kernels (fold k tests kernel k alone); the vocabulary is every kernel's, as in the paper.
/// Throws EvaluationError for fewer than 2 kernels.
Protocol leaveOneKernelOut(size_t kernels);

/// Inner folds over `count` training items: `k` folds (at most `count`), item i in fold i % k (the
/// coarsening fallback's threshold is chosen on them). Throws EvaluationError for k < 2 or no item.
Protocol interleavedFolds(size_t count, int k);

/// Pretraining on unlabelled sources, under every protocol: every evaluated source is a test
/// source of some fold, so an unlabelled copy of one would be a look at it. Returns the
/// `candidates` (in order) that are not among `evaluatedSources`, compared without their layout
/// (whitespace runs as one space, none at the ends: a copy plus a trailing newline is a copy),
/// and counts in `excluded` those left out.
std::vector<std::string> pretrainingSources(const std::vector<std::string>& candidates,
                                            const std::vector<std::string>& evaluatedSources,
                                            size_t& excluded);

/// The fold of each row of `rows` (same order), read from a folds file by joining on `index`.
/// Throws EvaluationError when a folds entry repeats an index, names an index that no row has, or
/// disagrees with the row on benchmark or dataset, and when a row has no folds entry; the message
/// names the folds row (1-based data row of the folds file) and the index.
std::vector<int> foldOfRows(const std::vector<data::DevmapRow>& rows,
                            const std::vector<data::FoldRow>& folds);

/// Leave one suite out: fold = index of the row's suite (parseBenchmarkName().suite) among the
/// distinct suites of `rows` sorted by name. Rows whose benchmark name does not parse share the
/// suite "" (fold 0 if present).
std::vector<int> foldsBySuite(const std::vector<data::DevmapRow>& rows);

/// The distinct suites of `rows` in fold order of foldsBySuite() (raw names, e.g. "amd-app-sdk").
std::vector<std::string> suitesInFoldOrder(const std::vector<data::DevmapRow>& rows);

/// k folds grouped by kernel source (`src`): rows with the same text always share a fold, so no
/// source is in both train and test. Groups are shuffled with `seed` (deterministic on every
/// platform), then assigned largest first to the fold with the fewest rows (ties: lowest fold).
/// Throws EvaluationError if k < 2 or k exceeds the number of distinct sources.
std::vector<int> foldsByKernel(const std::vector<data::DevmapRow>& rows, int k, uint64_t seed);

}  // namespace deeptune::evaluation
