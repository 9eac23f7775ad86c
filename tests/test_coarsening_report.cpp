// Tests of the thread-coarsening report folder: per-kernel table and CSV, the two SVG plots.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "evaluation/coarsening_report.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/svg_checks.hpp"

using deeptune::evaluation::CoarseningPrediction;
using deeptune::test::countOf;
using deeptune::test::readWholeFile;
using deeptune::test::xmlProblem;

TEST_CASE("coarsening report: per-kernel table, CSV and plots", "[report][coarsening]") {
  // Two devices x two kernels; static once, deeptune in two runs choosing different factors.
  std::vector<CoarseningPrediction> predictions;
  for (const char* device : {"Tahiti", "Fermi"}) {
    for (const char* kernel : {"sgemm", "mt<&>"}) {
      predictions.push_back({device, "static", 0, kernel, 1, 1.0, 2.0, 4});
      predictions.push_back({device, "deeptune", 0, kernel, 2, 1.5, 2.0, 4});
      predictions.push_back({device, "deeptune", 1, kernel, 4, 2.0, 2.0, 4});
    }
  }
  deeptune::test::ScratchDir dir("deeptune-coarsening-report");
  deeptune::evaluation::writeCoarseningReport(dir.path.string(), predictions, {"cmd", {}, {}});

  const std::string summary = readWholeFile((dir.path / "summary.md").string());
  CHECK_THAT(summary, Catch::Contains("### Fermi\n\n| kernel | best factor | oracle | static | "
                                      "deeptune |"));
  CHECK_THAT(summary, Catch::Contains("| sgemm | 4 | 2.00\xC3\x97 | 1.00\xC3\x97 (1) | "
                                      "1.75\xC3\x97 (2 4) |"));
  CHECK(readWholeFile((dir.path / "speedup_per_kernel.csv").string()) ==
        "device,kernel,best_factor,oracle_speedup,static,deeptune\n"
        "Tahiti,sgemm,4,2.000000,1.000000,1.750000\n"
        "Tahiti,mt<&>,4,2.000000,1.000000,1.750000\n"
        "Fermi,sgemm,4,2.000000,1.000000,1.750000\n"
        "Fermi,mt<&>,4,2.000000,1.000000,1.750000\n");

  const std::string perDevice = readWholeFile((dir.path / "speedup_per_device.svg").string());
  CHECK(xmlProblem(perDevice).empty());
  CHECK(countOf(perDevice, "class=\"bar\"") == 3 * 3);  // (2 devices + all) x (2 methods + oracle)
  CHECK_THAT(perDevice, Catch::Contains("deeptune, all: 1.750\xC3\x97"));
  const std::string perKernel = readWholeFile((dir.path / "speedup_per_kernel.svg").string());
  CHECK(xmlProblem(perKernel).empty());
  CHECK(countOf(perKernel, "class=\"marker\"") == 4 * 2);
  CHECK(countOf(perKernel, "class=\"oracle\"") == 4);
  CHECK_THAT(perKernel, Catch::Contains("mt&lt;&amp;&gt;"));
}

TEST_CASE("coarsening report: the score lines the CLI prints", "[report][coarsening]") {
  std::vector<CoarseningPrediction> predictions;
  for (const char* device : {"Tahiti", "Fermi"}) {
    predictions.push_back({device, "static", 0, "sgemm", 1, 1.0, 2.0, 4});
    predictions.push_back({device, "fixed", 0, "sgemm", 4, 2.0, 2.0, 4});
  }
  CHECK(deeptune::evaluation::coarseningScoreTable(
            deeptune::evaluation::coarseningScores(predictions)) ==
        "static       mean speedup 1.000x over 2 devices (50.0% of the oracle)\n"
        "fixed        mean speedup 2.000x over 2 devices (100.0% of the oracle)\n");
}

TEST_CASE("coarsening report: a training's progress line", "[report][coarsening]") {
  const CoarseningPrediction p{"Tahiti", "magni", 0, "sgemm", 4, 1.25, 2.0, 8};
  CHECK(deeptune::evaluation::coarseningProgressLine(p, 3, 68) ==
        "3/68 trainings: Tahiti magni run 0, sgemm -> factor 4 (1.25x)");
}
