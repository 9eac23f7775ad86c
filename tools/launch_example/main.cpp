// deeptune-launch-example: an OpenCL application that lets the DeepTune model choose the device
// for its kernels (api/launcher.hpp), runs a matrix product and a reduction there and checks both
// against the host.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "example_kernels.hpp"  // kernels/examples/*.cl
#include "api/launcher.hpp"

namespace {

void report(const char* what, const deeptune::api::LaunchResult& result) {
  const deeptune::api::Decision& d = result.decision;
  std::printf("%s: %s says %s (probability %.2f%s) for %llu bytes, wgsize %zu; ran on %s\n", what,
              d.method.c_str(), d.deviceType.c_str(), d.probability, d.cached ? ", cached" : "",
              static_cast<unsigned long long>(d.transferBytes), d.wgsize, d.deviceName.c_str());
  if (d.fallback) std::printf("  fallback because: %s\n", d.reason.c_str());
  if (!d.note.empty()) std::printf("  note: %s\n", d.note.c_str());
  std::printf("  time: %.3f ms in, %.3f ms kernel, %.3f ms out\n", result.h2dMs, result.kernelMs,
              result.d2hMs);
}

/// Runs C = A x B through the launcher `times` times; true when every result matches the host's.
bool matmul(deeptune::api::Launcher& launcher, int n, int times) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> a(n * n), b(n * n), expected(n * n, 0.0f);
  for (float& v : a) v = uniform(random);
  for (float& v : b) v = uniform(random);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      for (int j = 0; j < n; ++j) expected[i * n + j] += a[i * n + k] * b[k * n + j];
    }
  }
  bool ok = true;
  for (int t = 0; t < times; ++t) {
    std::vector<float> c(n * n, 0.0f);
    using namespace deeptune::api;
    const LaunchResult result =
        launcher.launch(kMatmulSource, "matmul",
                        {inputBuffer(a.data(), a.size() * sizeof(float)),
                         inputBuffer(b.data(), b.size() * sizeof(float)),
                         outputBuffer(c.data(), c.size() * sizeof(float)), value<int32_t>(n)},
                        static_cast<size_t>(n) * n);
    report(("matmul " + std::to_string(n) + "x" + std::to_string(n)).c_str(), result);
    double worst = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      worst = std::max(worst, static_cast<double>(std::fabs(c[i] - expected[i])));
    }
    const bool match = worst <= 1e-3 * n;
    std::printf("  check: max |error| %.2g against the host: %s\n", worst,
                match ? "verified" : "WRONG");
    ok = ok && match;
  }
  return ok;
}

/// Sums `count` values through the launcher (one partial sum per work-group, then the host).
bool reduce(deeptune::api::Launcher& launcher, int count) {
  const int group = 256;
  std::vector<float> in(count);
  double expected = 0;
  for (int i = 0; i < count; ++i) {
    in[i] = static_cast<float>((i % 1000) * 0.001);
    expected += in[i];
  }
  const int groups = (count + group - 1) / group;
  std::vector<float> partial(groups, 0.0f);
  using namespace deeptune::api;
  const LaunchResult result =
      launcher.launch(kBlockSumSource, "block_sum",
                      {inputBuffer(in.data(), in.size() * sizeof(float)),
                       outputBuffer(partial.data(), partial.size() * sizeof(float)),
                       localMemory(group * sizeof(float)), value<int32_t>(count)},
                      static_cast<size_t>(groups) * group, group);
  report(("sum of " + std::to_string(count)).c_str(), result);
  double sum = 0;
  for (float p : partial) sum += p;
  const bool match = std::fabs(sum - expected) <= 1e-4 * std::fabs(expected);
  std::printf("  check: %.6g, host %.6g: %s\n", sum, expected, match ? "verified" : "WRONG");
  return match;
}

}  // namespace

int main(int argc, char** argv) {
  deeptune::api::AdvisorOptions options;
  int n = 256;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out-of-process") {
      options.outOfProcess = true;
    } else if ((arg == "--model" || arg == "--platform" || arg == "--size") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--model") options.model = value;
      if (arg == "--platform") options.platform = value;
      if (arg == "--size") n = std::atoi(value.c_str());
    } else {
      std::fprintf(stderr,
                   "usage: deeptune-launch-example [--model M | --platform amd|nvidia] "
                   "[--size N] [--out-of-process]\n");
      return 2;
    }
  }
  if (n < 1 || n > 4096) {
    std::fprintf(stderr, "deeptune-launch-example: --size must be between 1 and 4096\n");
    return 2;
  }
  try {
    deeptune::api::Launcher launcher(options);
    for (const deeptune::runtime::DeviceInfo& d : launcher.devices()) {
      std::printf("dev%d: %s %s (%s)\n", d.index, d.type.c_str(), d.name.c_str(),
                  d.platform.c_str());
    }
    const bool ok = matmul(launcher, n, 2) && reduce(launcher, 1 << 20);
    std::printf("%s (%zu model predictions for 3 launches)\n",
                ok ? "all results verified" : "RESULTS DIFFER FROM THE HOST",
                launcher.predictions());
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "deeptune-launch-example: %s\n", e.what());
    return 1;
  }
}
