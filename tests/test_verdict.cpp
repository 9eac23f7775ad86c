// Tests of the validation verdicts (runtime/verdict.hpp) on made-up measurements: which device
// type was fastest, what a wrong choice cost, what cannot be judged; coarsening speedups.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "runtime/verdict.hpp"

using namespace deeptune::runtime;
using Catch::Matchers::Contains;

namespace {

DeviceInfo device(int index, const std::string& type) {
  DeviceInfo d;
  d.index = index;
  d.type = type;
  d.name = type + " " + std::to_string(index);
  return d;
}

/// A measurement with `runs` equal runs of `kernelNs` + 1000 ns of copies each way.
Measurement timed(uint64_t kernelNs, size_t wgsize = 64, uint64_t transfer = 4096, int runs = 5) {
  Measurement m;
  m.wgsize = wgsize;
  m.transferBytes = transfer;
  for (int i = 0; i < runs; ++i) m.runs.push_back(RunTiming{1000, kernelNs, 1000});
  return m;
}

Measurement failed(Status status, const std::string& message) {
  Measurement m;
  m.status = status;
  m.message = message;
  return m;
}

KernelResult resultOf(std::vector<Measurement> devices) {
  KernelResult r;
  r.kernel = "k";
  r.gsize = 1024;
  r.devices = std::move(devices);
  return r;
}

}  // namespace

TEST_CASE("the device verdict: the fastest type, and what a wrong choice costs", "[verdict]") {
  const std::vector<DeviceInfo> devices = {device(0, "CPU"), device(1, "GPU")};
  const KernelResult result = resultOf({timed(8000), timed(2000)});  // totals 10 us and 4 us
  const DeviceVerdict right = judgeDeviceChoice(devices, result, "GPU");
  CHECK(right.fastest == "GPU");
  REQUIRE(right.correct.has_value());
  CHECK(*right.correct);
  CHECK(*right.ofOracle == Approx(1.0));
  CHECK(right.note.empty());
  const DeviceVerdict wrong = judgeDeviceChoice(devices, result, "CPU");
  REQUIRE(wrong.correct.has_value());
  CHECK_FALSE(*wrong.correct);
  CHECK(*wrong.ofOracle == Approx(0.4));
  CHECK_THAT(wrong.note, Contains("GPU would have been 2.50x faster"));
}

TEST_CASE("the device verdict: a type is its first device with timings", "[verdict]") {
  const std::vector<DeviceInfo> devices = {device(0, "GPU"), device(1, "CPU"), device(2, "GPU")};
  // The first GPU failed: the second represents the type, and it is slower than the CPU.
  const KernelResult result =
      resultOf({failed(Status::kBuildError, "error: x"), timed(3000), timed(5000)});
  const DeviceVerdict verdict = judgeDeviceChoice(devices, result, "GPU");
  CHECK(verdict.fastest == "CPU");
  REQUIRE(verdict.correct.has_value());
  CHECK_FALSE(*verdict.correct);
  CHECK(*verdict.ofOracle == Approx(5000.0 / 7000.0));
}

TEST_CASE("the device verdict says when it cannot judge", "[verdict]") {
  const std::vector<DeviceInfo> cpuOnly = {device(0, "CPU")};
  const DeviceVerdict onlyType = judgeDeviceChoice(cpuOnly, resultOf({timed(100)}), "CPU");
  REQUIRE(onlyType.correct.has_value());
  CHECK(*onlyType.correct);
  CHECK(onlyType.note == "the only device type measured on this machine");
  const DeviceVerdict absent = judgeDeviceChoice(cpuOnly, resultOf({timed(100)}), "GPU");
  CHECK_FALSE(absent.correct.has_value());
  CHECK(absent.note == "cannot judge: no GPU device on this machine");
  CHECK(absent.fastest == "CPU");
  const std::vector<DeviceInfo> both = {device(0, "CPU"), device(1, "GPU")};
  const DeviceVerdict untimed =
      judgeDeviceChoice(both, resultOf({timed(100), failed(Status::kCrash, "")}), "GPU");
  CHECK_FALSE(untimed.correct.has_value());
  CHECK(untimed.note == "cannot judge: the GPU device produced no timings");
  const DeviceVerdict none = judgeDeviceChoice(
      both, resultOf({failed(Status::kTimeout, ""), failed(Status::kCrash, "")}), "GPU");
  CHECK_FALSE(none.correct.has_value());
  CHECK(none.fastest.empty());
  CHECK(none.note == "cannot judge: no device produced timings");
}

TEST_CASE("launch sizes: the first payload's transfer, the smallest work-group", "[verdict]") {
  const KernelResult result = resultOf(
      {failed(Status::kBuildError, "error: a\nmore"), timed(10, 128, 8192), timed(10, 32, 4096)});
  const auto sizes = launchSizesOf(result);
  REQUIRE(sizes.has_value());
  CHECK(sizes->transfer == 8192);
  CHECK(sizes->wgsize == 32);
  CHECK(anyTimings(result));
  const KernelResult none =
      resultOf({failed(Status::kBuildError, "error: a"), failed(Status::kTimeout, "slow")});
  CHECK_FALSE(launchSizesOf(none).has_value());
  CHECK_FALSE(anyTimings(none));
  CHECK(statusesOf(none) == "BUILD_ERROR: error: a; TIMEOUT: slow");
}

TEST_CASE("the factor verdict: speedup over factor 1 and share of the best", "[verdict]") {
  std::vector<FactorRun> runs;
  for (const auto& [factor, ns] :
       std::vector<std::pair<size_t, uint64_t>>{{1, 8000}, {2, 4000}, {4, 2000}, {8, 5000}}) {
    runs.push_back(FactorRun{factor, "", {timed(ns)}});
  }
  runs.push_back(FactorRun{16, "refused: too few work-items", {}});
  const FactorVerdict best = judgeFactor(runs, 0, 4);
  CHECK(*best.best == 4);
  CHECK(*best.speedup == Approx(4.0));
  CHECK(*best.ofOracle == Approx(1.0));
  CHECK(best.note.empty());
  REQUIRE(best.ns.size() == 5);
  CHECK_FALSE(best.ns[4].has_value());
  const FactorVerdict slower = judgeFactor(runs, 0, 8);
  CHECK(*slower.speedup == Approx(1.6));
  CHECK(*slower.ofOracle == Approx(0.4));
  // Factor 16 was refused: judged as the largest timed factor below it (8).
  const FactorVerdict clipped = judgeFactor(runs, 0, 16);
  CHECK(*clipped.speedup == Approx(1.6));
  CHECK(clipped.note == "factor 16 not timed here; judged as factor 8");
}

TEST_CASE("the factor verdict needs a timed factor 1, and ignores failed checks", "[verdict]") {
  Measurement disagrees = timed(1000);
  disagrees.status = Status::kFactorDisagrees;  // timed, but its output was wrong
  std::vector<FactorRun> runs = {FactorRun{1, "", {timed(4000)}}, FactorRun{2, "", {disagrees}}};
  const FactorVerdict verdict = judgeFactor(runs, 0, 2);
  CHECK(*verdict.best == 1);
  CHECK(*verdict.speedup == Approx(1.0));
  CHECK(verdict.note == "factor 2 not timed here; judged as factor 1");
  runs[0].devices[0] = failed(Status::kCrash, "");
  const FactorVerdict none = judgeFactor(runs, 0, 2);
  CHECK_FALSE(none.speedup.has_value());
  CHECK(none.note == "cannot judge: factor 1 produced no timings on this device");
}
