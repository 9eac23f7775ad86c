// Device-mapping evaluation report: Markdown and CSV tables plus two SVG plots in one folder.
#pragma once

#include <string>
#include <vector>

#include "data/datasets.hpp"
#include "evaluation/devmap_metrics.hpp"
#include "evaluation/novelty_scores.hpp"
#include "model/training_summary.hpp"

namespace deeptune::evaluation {

/// How a report was made, for its reader: all optional.
struct DevmapReportContext {
  std::string protocol;                    ///< e.g. "10-fold CV, folds-amd.csv"
  std::string command;                     ///< the command line that made the report
  std::vector<std::string> settings;       ///< e.g. "machine: AMD EPYC, 2 cores", "workers: 2"
  std::vector<model::FoldTraining> folds;  ///< per-fold training of the learned methods' runs
  RowNovelty novelty;  ///< how far each row is from its fold's training programs (or empty)
};

/// Writes the report of one platform's evaluation into `dir` (created with its parents; every
/// file is written to a temporary name and renamed, so a reader never sees half a file):
/// - summary.md: method × accuracy, mean and geomean speedup, % of oracle (plus an "oracle" row),
///   then per-suite tables of accuracy and mean speedup;
/// - metrics.csv: method,suite,accuracy,speedup_mean,speedup_geomean,oracle_pct,rows,ece with
///   one row per method (and "oracle") and suite, suite "all" for the overall figures; accuracy
///   and oracle_pct in percent, ece the expected calibration error (empty without probabilities);
/// - predictions.csv: index,benchmark,dataset,oracle,fold, one column per method, then
///   METHOD_p_gpu (its GPU probability) for each method that has probabilities;
/// - calibration.csv and reliability.svg, when a method has probabilities: each such method's
///   reliability bins (evaluation/calibration_metrics.hpp: method,bin_lower,bin_upper,rows,
///   mean_probability,accuracy,ece) and their diagram (reliabilitySvg);
/// - speedup_per_benchmark.csv: benchmark,suite,datasets, one column per method, oracle;
/// - runs.csv: per group of methods (e.g. one method's seeds; see repeatedScores) the number of
///   runs and mean, sd, min, max of accuracy (%), mean and geomean speedup, % of oracle and ECE
///   (empty unless every run has probabilities);
/// - training.csv (when context.folds is not empty): method,seed,fold,epochs,final_loss,
///   final_train_accuracy,best_train_accuracy,best_epoch,test_rows,test_accuracy,predicted_gpu,
///   collapsed (accuracies in %);
/// - novelty.csv (when context.novelty is measured): each row's distance to its fold's nearest
///   training program and its share of unknown characters; summary.md then compares each
///   method on the most novel quarter of the rows with the rest (noveltySplits);
/// - accuracy_per_suite.svg and speedup_per_benchmark.svg (see the functions below).
/// `methods` hold one device per row of `rows`; speedups are over staticDevices(rows, foldOfRow).
/// summary.md quotes the context and, for groups of several runs, their mean ± sd, and lists
/// every fold's training with collapsed folds marked.
/// Throws EvaluationError on inconsistent sizes, an empty method list or an I/O failure.
void writeDevmapReport(const std::string& dir, const std::string& platform,
                       const std::vector<data::DevmapRow>& rows, const std::vector<int>& foldOfRow,
                       const std::vector<MethodPredictions>& methods,
                       const DevmapReportContext& context = {});

/// Grouped bar chart (the paper's Figures 6/7): one group per suite of `scores` plus "All", one
/// bar (an SVG <rect class="bar">) per method in each group, y = accuracy in %.
std::string accuracyPerSuiteSvg(const std::vector<MethodScores>& scores, const std::string& title);

/// Per-benchmark mean speedups over the static mapping on a log scale: one marker
/// (<circle class="marker">) per benchmark and method, a dash for the oracle, benchmarks grouped by
/// suite. `methodNames` name the entries of BenchmarkSpeedup::methods.
std::string speedupPerBenchmarkSvg(const std::vector<BenchmarkSpeedup>& speedups,
                                   const std::vector<std::string>& methodNames,
                                   const std::string& title);

/// The scores a person reads after an evaluation: a line naming the platform, the protocol and
/// the rows, one line per method (accuracy, mean and geomean speedup, % of oracle, the expected
/// calibration error where a method has probabilities; the accuracy without ties where there
/// are ties), and the mean and spread of each group of repeated runs.
std::string devmapScoreTable(const std::string& platform, const std::string& protocol,
                             const std::vector<data::DevmapRow>& rows,
                             const std::vector<int>& foldOfRow,
                             const std::vector<MethodPredictions>& methods);

/// What a person reads when a fold's model is done: one line (test accuracy, GPU predictions,
/// training accuracy and its best epoch) and a second, a warning, when its training collapsed.
/// `gpuDevice` names the data's second device (label GPU): "GPU" for the paper's data, the
/// measured device's name for a `deeptune measure` CSV ("4 of 10 rows on pthread-...").
std::string foldTrainingReport(const model::FoldTraining& fold, int folds,
                               const std::string& gpuDevice = "GPU");

/// The progress line of one DeepTune epoch in a cross-validation: "deeptune run 1/3 fold 2/10
/// epoch 7/50  loss 0.4821  accuracy 0.812  ETA 3m02s" (with the validation accuracy when there
/// is one); `etaSeconds` is the caller's estimate of the time left.
std::string deeptuneEpochLine(int run, int runs, int fold, int folds,
                              const model::EpochProgress& progress, double etaSeconds);

}  // namespace deeptune::evaluation
