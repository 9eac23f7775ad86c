// Tests of measure's bookkeeping (runtime/measure_jobs.hpp, runtime/coarsening_csv.hpp): jobs of
// files and CSVs, row names, what a resumed run still measures, and the coarsening CSV's rows.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "data/data_error.hpp"
#include "runtime/coarsening_csv.hpp"
#include "runtime/measure_jobs.hpp"
#include "runtime/measure_run.hpp"
#include "tests/scratch_dir.hpp"

using namespace deeptune::runtime;
using Catch::Matchers::Contains;

namespace {

const char* kTwoKernels =
    "kernel void add(global float* a) { a[get_global_id(0)] += 1; }\n"
    "kernel void mul(global float* a) { a[get_global_id(0)] *= 2; }\n";
const char* kOneKernel = "kernel void A(global int* a) { a[0] = 1; }";

}  // namespace

TEST_CASE("measure jobs: a file's rows are FILE:KERNEL, --kernel must name one", "[measure]") {
  const MeasureJob all = fileJob("k.cl", kTwoKernels, "");
  CHECK(all.kernels.empty());
  CHECK(all.kernelNames() == std::vector<std::string>{"add", "mul"});
  CHECK(all.benchmarksOf("mul") == std::vector<std::string>{"k.cl:mul"});
  const MeasureJob one = fileJob("k.cl", kTwoKernels, "mul");
  CHECK(one.kernelNames() == std::vector<std::string>{"mul"});
  CHECK_THROWS_WITH(fileJob("k.cl", kTwoKernels, "sub"),
                    "k.cl:1:1: no kernel named 'sub'; kernels: add, mul");
  CHECK_THROWS_AS(fileJob("k.cl", kTwoKernels, "sub"), deeptune::data::DataError);
}

TEST_CASE("measure jobs: a CSV gives one job per source, under every name", "[measure]") {
  const deeptune::test::ScratchDir dir("deeptune-measure-jobs");
  const std::string csv =
      dir.file("rows.csv",
               std::string("benchmark,dataset,src\n") + "a,1,\"" + kOneKernel + "\"\n" +  // line 2
                   "a,2,\"" + kOneKernel + "\"\n" +   // same name and source
                   "b,1,\"" + kOneKernel + "\"\n" +   // another name, same source
                   "c,1,\n" +                         // line 5: no source
                   "a,3,\"" + kTwoKernels + "\"\n" +  // line 6: a 2nd source
                   "d,1,\"" + kTwoKernels + "\"\n");
  std::vector<std::string> notMeasured;
  const std::vector<MeasureJob> jobs = csvJobs(csv, notMeasured);
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].names == std::vector<std::string>{"a", "b"});
  CHECK(jobs[0].file.empty());
  CHECK(jobs[0].benchmarksOf("A") == std::vector<std::string>{"a", "b"});  // one kernel
  CHECK(jobs[1].names == std::vector<std::string>{"d"});
  CHECK(jobs[1].benchmarksOf("add") == std::vector<std::string>{"d:add"});  // several kernels
  REQUIRE(notMeasured.size() == 2);
  CHECK(notMeasured[0] == csv + ":5: benchmark 'c': empty src, not measured");
  CHECK_THAT(notMeasured[1],
             Contains(":6: benchmark 'a': a second source") && Contains("(line 2), not measured"));
  const std::string empty = dir.file("empty-name.csv", "benchmark,src\n,x\n");
  CHECK_THROWS_AS(csvJobs(empty, notMeasured), deeptune::data::DataError);
}

TEST_CASE("measure jobs: a resumed run measures only the sizes rows lack", "[measure]") {
  const MeasureJob job = fileJob("k.cl", kTwoKernels, "");
  std::set<std::pair<std::string, size_t>> written = {
      {"k.cl:add", 64}, {"k.cl:mul", 64}, {"k.cl:add", 128}};
  const RowDone done = [&](const std::string& benchmark, size_t gsize) {
    return written.count({benchmark, gsize}) > 0;
  };
  CHECK(sizesToMeasure(job, {64, 128, 256}, done) == std::vector<size_t>{128, 256});
  CHECK(benchmarksToWrite(job, "add", 128, done).empty());
  CHECK(benchmarksToWrite(job, "mul", 128, done) == std::vector<std::string>{"k.cl:mul"});
  // No kernel the scan can see: measured, so that the worker says what the program holds.
  const MeasureJob opaque = fileJob("m.cl", "#define K kernel\nK void f() {}", "");
  CHECK(sizesToMeasure(opaque, {64}, done) == std::vector<size_t>{64});
}

TEST_CASE("coarsening CSV: labels, header and rows", "[measure]") {
  std::vector<DeviceInfo> devices(3);
  devices[0].name = "pthread-AMD EPYC (x)";
  devices[1].name = "pthread-AMD EPYC (x)";
  devices[1].index = 1;
  devices[2].index = 2;
  const std::vector<std::string> labels = coarseningDeviceLabels(devices);
  CHECK(labels ==
        std::vector<std::string>{"pthread-AMD_EPYC__x_", "pthread-AMD_EPYC__x__1", "device"});
  CHECK(coarseningCsvHeader({"A", "B"}) == std::vector<std::string>{"kernel", "cf", "runtime_A",
                                                                    "runtime_B", "status_A",
                                                                    "status_B", "message", "src"});
  FactorRun run{2, "", std::vector<Measurement>(2)};
  for (int i = 0; i < 5; ++i) run.devices[0].runs.push_back(RunTiming{0, 1000u + i, 0});
  run.devices[1].status = Status::kFactorDisagrees;
  run.devices[1].message = "outputs differ from factor 1\nat index 3";
  run.devices[1].runs = run.devices[0].runs;
  const CoarseningRow row = coarseningCsvRow("k", run, 2, "src text");
  CHECK(row.fields == std::vector<std::string>{"k", "2", "1002", "", "OK", "FACTOR_DISAGREES",
                                               "outputs differ from factor 1 | at index 3",
                                               "src text"});
  const CoarseningRow refused = coarseningCsvRow("k", FactorRun{4, "too few items", {}}, 2, "s");
  CHECK(refused.statuses == std::vector<std::string>{"REFUSED", "REFUSED"});
  CHECK(refused.fields[6] == "too few items");
}

TEST_CASE("coarsening CSV: a kernel name two files define gets the file's stem", "[measure]") {
  CHECK(uniqueKernelNames({{"a/x.cl", "k"}, {"b/y.cl", "k"}, {"b/y.cl", "j"}}) ==
        std::vector<std::string>{"x:k", "y:k", "j"});
}

TEST_CASE("measure jobs: the run's last line", "[measure]") {
  deeptune::runtime::MeasureTotals totals;
  totals.rows = 12;
  totals.counts = {{"OK", 20}, {"TIMEOUT", 4}};
  CHECK(deeptune::runtime::measureSummaryLine(totals, "3m02s", "t.csv", 0) ==
        "measure: 12 rows in 3m02s to t.csv (device results: " +
            deeptune::runtime::tallyText(totals.counts) + ")");
  CHECK_THAT(deeptune::runtime::measureSummaryLine(totals, "1s", "-", 2),
             Catch::EndsWith("; 2 input rows not measured (listed above)"));
  // Issue 45: a resumed run says which rows are new and how many were there before.
  totals.rows = 1;
  CHECK_THAT(deeptune::runtime::measureSummaryLine(totals, "1s", "t.csv", 0, 2),
             Catch::StartsWith("measure: 1 new row in 1s to t.csv, beside 2 rows of an earlier "
                               "run (device results: "));
}
