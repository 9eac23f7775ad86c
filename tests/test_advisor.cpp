// Advisor tests: legality before the model (table-driven and on PoCL), the fallback when the
// model fails, the decision cache (by source and by normalized kernel), threads, the decision log,
// the decision budget.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "api/advisor.hpp"
#include "api/api_error.hpp"
#include "runtime/devices.hpp"

using Catch::Matchers::Contains;
using deeptune::api::Advisor;
using deeptune::api::Decision;
using deeptune::api::DeviceLimits;
using deeptune::api::LaunchQuery;
using deeptune::api::NDRange;

namespace {

/// A model stand-in: answers `device`, or throws when `device` is empty; counts its calls.
class CountingModel : public deeptune::api::DeviceModel {
 public:
  CountingModel(std::string device, std::atomic<int>& calls, uint64_t normalized = 0)
      : device_(std::move(device)), calls_(calls), normalized_(normalized) {}
  Decision predictDevice(const std::string&, const std::string& kernel, uint64_t, size_t,
                         const std::string&) override {
    ++calls_;
    if (device_.empty()) throw std::runtime_error("the network exploded");
    Decision d;
    d.kernel = kernel;
    d.deviceType = device_;
    d.probability = 0.9;
    d.normalizedHash = normalized_;
    return d;
  }
  uint64_t normalizedHash(const std::string&, const std::string&, const std::string&) override {
    return normalized_;
  }
  std::string modelPath() const override { return "counting"; }

 private:
  std::string device_;
  std::atomic<int>& calls_;
  uint64_t normalized_;
};

const DeviceLimits kGpu{"gpu0", "GPU", 256, {256, 256, 64}};
const DeviceLimits kCpu{"cpu0", "CPU", 4096, {4096, 4096, 4096}};
const DeviceLimits kFlatCpu{"flat", "CPU", 1024, {1024}};  // one dimension only

LaunchQuery saxpyQuery(std::vector<size_t> local = {64}) {
  LaunchQuery q;
  q.source = "__kernel void k(__global float* a) { a[get_global_id(0)] += 1.0f; }";
  q.kernel = "k";
  for (const auto& d : deeptune::runtime::listDevices()) q.candidates.push_back(d.id);
  q.range = NDRange({4096}, std::move(local));
  q.transferBytes = 4096 * 4 * 2;
  return q;
}

}  // namespace

TEST_CASE("legality: a candidate that cannot run the range is never chosen", "[advisor]") {
  struct Case {
    std::vector<DeviceLimits> candidates;
    NDRange range;
    std::string wanted;
    int expected;
    std::string note;
  };
  const std::vector<Case> cases = {
      {{kGpu, kCpu}, {{4096}, {256}}, "GPU", 0, ""},
      {{kGpu, kCpu}, {{4096}, {1024}}, "GPU", 1, "no GPU candidate can run this range"},
      {{kGpu, kCpu}, {{64, 64}, {32, 32}}, "GPU", 1, "exceeds the device's limit 256"},
      {{kGpu, kCpu}, {{4096}, {8192}}, "CPU", -1, "no candidate device can run this range"},
      {{kCpu}, {{4096}}, "GPU", 0, "no GPU among the candidate devices"},
      {{kFlatCpu, kGpu}, {{8, 8, 8}, {2, 2, 2}}, "CPU", 1, "3 dimensions exceed the device's 1"},
      {{kGpu}, {{1 << 20}}, "GPU", 0, ""},  // no local size: the driver chooses, always legal
      {{kGpu, kCpu}, {{4096}, {1024}}, "", 1, ""},  // no type wanted: the first legal one
  };
  for (const Case& c : cases) {
    std::string note;
    INFO(c.note);
    CHECK(deeptune::api::pickCandidate(c.candidates, c.range, c.wanted, note) == c.expected);
    if (c.note.empty()) {
      CHECK(note.empty());
    } else {
      CHECK_THAT(note, Contains(c.note));
    }
  }
}

TEST_CASE("a model of measured devices lands on the candidate of that name", "[advisor]") {
  const DeviceLimits basic{"basic-cpu", "CPU", 4096, {4096, 4096, 4096}};
  const DeviceLimits pthread{"pthread-cpu", "CPU", 4096, {4096, 4096, 4096}};
  const DeviceLimits smallPthread{"pthread-cpu", "CPU", 64, {64, 64, 64}};
  std::string note;
  // by name, though another candidate of the same type comes first
  CHECK(deeptune::api::pickCandidate({basic, pthread}, {{4096}, {256}}, "CPU", note,
                                     "pthread-cpu") == 1);
  CHECK(note.empty());
  // the named one cannot run the range: the first legal one of its type, said in the note
  CHECK(deeptune::api::pickCandidate({basic, smallPthread}, {{4096}, {256}}, "CPU", note,
                                     "pthread-cpu") == 0);
  CHECK_THAT(note, Contains("no candidate named pthread-cpu can run this range"));
  // not among the candidates at all: by type
  CHECK(deeptune::api::pickCandidate({kGpu, basic}, {{4096}, {256}}, "CPU", note, "other") == 1);
  CHECK_THAT(note, Contains("no candidate named other"));
}

TEST_CASE("malformed ranges are refused", "[advisor]") {
  CHECK_THROWS_WITH(deeptune::api::checkRange({{}}), Contains("1 to 3 dimensions"));
  CHECK_THROWS_WITH(deeptune::api::checkRange({{1, 2, 3, 4}}), Contains("1 to 3 dimensions"));
  CHECK_THROWS_WITH(deeptune::api::checkRange({{64}, {48}}), Contains("not a multiple"));
  CHECK_THROWS_WITH(deeptune::api::checkRange({{64, 64}, {8}}), Contains("local size has 1"));
  CHECK_THROWS_WITH(deeptune::api::checkRange({{0}}), Contains("is 0"));
  CHECK_THROWS_AS(deeptune::api::checkRange({{0}}), deeptune::api::ApiError);
  CHECK_NOTHROW(deeptune::api::checkRange({{64, 8, 2}, {8, 8, 1}}));
}

TEST_CASE("the advisor checks legality on the real device before asking the model", "[advisor]") {
  std::atomic<int> calls{0};
  Advisor advisor(std::make_unique<CountingModel>("CPU", calls));
  LaunchQuery query = saxpyQuery();
  query.range = NDRange({16384}, {8192});  // above PoCL's work-group limit
  const size_t limit = deeptune::runtime::describeDevice(query.candidates.front()).maxWorkGroupSize;
  REQUIRE(limit < 8192);
  CHECK_THROWS_WITH(advisor.advise(query), Contains("no candidate device can run this range"));
  CHECK(calls == 0);
  query.range = NDRange({limit * 4}, {limit});
  const Decision ok = advisor.advise(query);
  CHECK(ok.device == query.candidates.front());
  CHECK(ok.wgsize == limit);
  CHECK(calls == 1);
  query.candidates.clear();
  CHECK_THROWS_WITH(advisor.advise(query), Contains("no candidate devices"));
  CHECK_THROWS_AS(advisor.advise(query), deeptune::api::ApiError);
}

TEST_CASE("a failing model falls back by the documented rule, flagged", "[advisor]") {
  std::atomic<int> calls{0};
  Advisor advisor(std::make_unique<CountingModel>("", calls));
  LaunchQuery query = saxpyQuery();
  const Decision small = advisor.advise(query);
  CHECK(small.fallback);
  CHECK_FALSE(small.cached);
  CHECK_THAT(small.reason, Contains("the network exploded"));
  CHECK(small.deviceType == "CPU");
  CHECK(small.probability == 0);
  CHECK(small.device == query.candidates.front());
  query.transferBytes = deeptune::api::kDefaultFallbackGpuBytes;  // from here on: GPU
  const Decision large = advisor.advise(query);
  CHECK(large.fallback);
  CHECK(large.deviceType == "GPU");
  CHECK(large.device != nullptr);  // on a machine without a GPU: the CPU, with a note
  // The fallback is cached too: the failing model is not asked again for these sizes.
  const int before = calls;
  CHECK(advisor.advise(query).cached);
  CHECK(calls == before);
  // No model at all: every decision falls back, with why.
  Advisor none(nullptr);
  CHECK_THAT(none.modelProblem(), Contains("no model"));
  CHECK_THAT(none.advise(saxpyQuery()).reason, Contains("model unavailable"));
}

TEST_CASE("an answer less sure than the advisor's minimum gives way to the fallback", "[advisor]") {
  std::atomic<int> calls{0};
  deeptune::api::AdvisorOptions options;
  options.minProbability = 0.95;  // the stand-in answers GPU with 0.9
  Advisor unsure(std::make_unique<CountingModel>("GPU", calls, /*normalized=*/7), options);
  const LaunchQuery query = saxpyQuery();  // 32 KiB: the rule says CPU
  const Decision decision = unsure.advise(query);
  CHECK(decision.fallback);
  CHECK(decision.method == "fallback");
  CHECK(decision.deviceType == "CPU");
  CHECK(decision.probability == Approx(0.1));  // the model's probability of the CPU
  CHECK_THAT(decision.reason, Contains("probability 0.900 of GPU, below the advisor's minimum"));
  // Cached as the model's answer for this kernel: the model is not asked again.
  CHECK(unsure.advise(query).cached);
  CHECK(calls == 1);
  // At or above the minimum the model's answer stands.
  options.minProbability = 0.9;
  Advisor sure(std::make_unique<CountingModel>("GPU", calls, 7), options);
  const Decision kept = sure.advise(query);
  CHECK_FALSE(kept.fallback);
  CHECK(kept.deviceType == "GPU");
  for (double bad : {-0.1, 1.5, std::nan("")}) {
    options.minProbability = bad;
    CHECK_THROWS_AS(Advisor(std::make_unique<CountingModel>("GPU", calls), options),
                    deeptune::api::ApiError);
  }
}

TEST_CASE("decisions are cached by source and by normalized kernel", "[advisor]") {
  std::atomic<int> calls{0};
  Advisor advisor(std::make_unique<CountingModel>("CPU", calls, /*normalized=*/42));
  LaunchQuery query = saxpyQuery();
  CHECK_FALSE(advisor.advise(query).cached);
  CHECK(advisor.advise(query).cached);
  CHECK(calls == 1);
  // Another text of the same normalized kernel: its rewrite is compared, the network not run.
  query.source += "  // a comment";
  const Decision lookAlike = advisor.advise(query);
  CHECK(lookAlike.cached);
  CHECK(lookAlike.kernel == "k");
  CHECK(calls == 1);
  // Other sizes are another decision.
  query.transferBytes *= 2;
  CHECK_FALSE(advisor.advise(query).cached);
  query.range = NDRange({4096}, {128});
  CHECK_FALSE(advisor.advise(query).cached);
  CHECK(calls == 3);
  CHECK(advisor.modelCalls() == 3);
}

TEST_CASE("the advisor is thread-safe and logs every decision", "[advisor]") {
  std::atomic<int> calls{0};
  std::atomic<int> logged{0};
  deeptune::api::AdvisorOptions options;
  options.log = [&logged](const Decision& d) {
    if (d.deviceType == "CPU") ++logged;
  };
  Advisor advisor(std::make_unique<CountingModel>("CPU", calls), options);
  const LaunchQuery query = saxpyQuery();
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        if (advisor.advise(query).device != query.candidates.front()) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == 0);
  CHECK(calls == 1);
  CHECK(logged == 200);
}

namespace {

/// A model that does not answer until the test lets it (a kernel that takes long to normalize).
class GatedModel : public CountingModel {
 public:
  GatedModel(std::atomic<int>& calls, std::shared_future<void> gate)
      : CountingModel("GPU", calls), gate_(std::move(gate)) {}
  Decision predictDevice(const std::string& source, const std::string& kernel, uint64_t bytes,
                         size_t wgsize, const std::string& options) override {
    gate_.wait();
    return CountingModel::predictDevice(source, kernel, bytes, wgsize, options);
  }

 private:
  std::shared_future<void> gate_;
};

}  // namespace

TEST_CASE("a decision budget answers with the fallback and caches the model's late answer",
          "[advisor]") {
  std::atomic<int> calls{0};
  std::promise<void> open;
  deeptune::api::AdvisorOptions options;
  options.decisionBudgetMs = 5;
  Advisor advisor(std::make_unique<GatedModel>(calls, open.get_future().share()), options);
  const LaunchQuery query = saxpyQuery();  // 32 KiB moved: the fallback says CPU

  const Decision first = advisor.advise(query);  // the model is held: only the budget ends it
  CHECK(first.fallback);
  CHECK(first.deferred);
  CHECK_FALSE(first.cached);
  CHECK(first.deviceType == "CPU");
  CHECK_THAT(first.reason, Contains("within the budget of 5 ms"));
  CHECK(advisor.advise(query).deferred);  // still working: no second model call is queued

  open.set_value();
  advisor.finishDeferred();
  const Decision later = advisor.advise(query);
  CHECK(later.cached);
  CHECK_FALSE(later.fallback);
  CHECK(later.deviceType == "GPU");
  CHECK(calls == 1);

  std::atomic<int> fastCalls{0};
  options.decisionBudgetMs = 60e3;  // a model that answers in time is not deferred
  Advisor patient(std::make_unique<CountingModel>("GPU", fastCalls), options);
  const Decision answered = patient.advise(query);
  CHECK_FALSE(answered.fallback);
  CHECK_FALSE(answered.deferred);
  CHECK(answered.deviceType == "GPU");
}

namespace {

/// Kernel `i` of a family whose members normalize apart.
LaunchQuery familyQuery(int i) {
  LaunchQuery q = saxpyQuery();
  q.source = "__kernel void k(__global float* a) {\n  a[get_global_id(0)] = a[0] * " +
             std::to_string(i) + ".0f;\n}\n";
  return q;
}

/// Asks `advisor` about kernels [first, last) of the family; the number of answers that are not
/// the expected (normalized hash, device), or 100 on an exception.
int wrongAnswers(Advisor& advisor, int first, int last, const std::vector<Decision>& expected) {
  int wrong = 0;
  try {
    for (int i = first; i < last; ++i) {
      const Decision d = advisor.advise(familyQuery(i));
      const Decision& e = expected[static_cast<size_t>(i)];
      if (d.fallback || d.normalizedHash != e.normalizedHash || d.deviceType != e.deviceType ||
          d.probability != e.probability) {
        ++wrong;
      }
    }
  } catch (const std::exception&) {
    return 100;
  }
  return wrong;
}

}  // namespace

TEST_CASE("an application forked after the advisor was used gets only its own answers",
          "[advisor][fork]") {
  const int kernels = 120;
  std::vector<Decision> expected;
  {
    Advisor reference;
    REQUIRE(reference.modelProblem().empty());
    for (int i = 0; i < kernels; ++i) expected.push_back(reference.advise(familyQuery(i)));
  }
  const pid_t application = fork();
  if (application == 0) {
    alarm(600);  // a hang fails the test (the sanitizer build under load took over 60 s)
    Advisor advisor;
    advisor.advise(saxpyQuery());  // the rewriting worker and the device limits, before the fork
    int start[2];
    if (pipe(start) != 0) _exit(104);
    const pid_t child = fork();
    if (child == 0) {
      alarm(600);
      char go = 0;
      if (read(start[0], &go, 1) != 1) _exit(105);  // both ask from the same moment on
      _exit(wrongAnswers(advisor, kernels / 2, kernels, expected));
    }
    if (write(start[1], "g", 1) != 1) _exit(106);
    const int parentWrong = wrongAnswers(advisor, 0, kernels / 2, expected);
    int childStatus = 0;
    waitpid(child, &childStatus, 0);
    // What the parent cached is its own, too.
    const int cachedWrong = wrongAnswers(advisor, 0, kernels / 2, expected);
    if (!WIFEXITED(childStatus)) _exit(101);
    _exit(parentWrong + cachedWrong != 0 ? 102 : WEXITSTATUS(childStatus));
  }
  int status = 0;
  waitpid(application, &status, 0);
  INFO("status " << status);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
