// What a fresh application process pays for the advisor: Advisor(), the first decision and the
// whole process, over fresh processes, beside fresh processes that must build the shim PCH.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "api/advisor.hpp"
#include "bench/bench_common.hpp"
#include "runtime/devices.hpp"

namespace fs = std::filesystem;
using deeptune::bench::Clock;
using deeptune::bench::msSince;
using deeptune::bench::percentile;

namespace {

/// In a fresh process: Advisor() and the first decision on a small kernel, in ms, on stdout.
int child() {
  auto start = Clock::now();
  deeptune::api::Advisor advisor;
  const double constructMs = msSince(start);
  std::vector<cl_device_id> candidates;
  for (const auto& device : deeptune::runtime::listDevices()) candidates.push_back(device.id);
  if (candidates.empty() || !advisor.modelProblem().empty()) return 1;
  deeptune::api::LaunchQuery query;
  query.source =
      "__kernel void scale(__global float* a, const float s) {\n"
      "  a[get_global_id(0)] *= s;\n}\n";
  query.candidates = candidates;
  query.range = deeptune::api::NDRange({1 << 20}, {128});
  query.transferBytes = 1 << 23;
  start = Clock::now();
  const deeptune::api::Decision decision = advisor.advise(query);
  const double firstMs = msSince(start);
  if (decision.fallback) return 1;
  std::printf("%.3f %.3f\n", constructMs, firstMs);
  return 0;
}

struct Sample {
  double construct = 0, first = 0, whole = 0;
};

/// Runs this program as a child `runs` times with `environment` added; the samples, or none if a
/// child failed.
std::vector<Sample> runFresh(int runs, const std::vector<std::string>& environment) {
  std::vector<Sample> samples;
  for (int i = 0; i < runs; ++i) {
    int ends[2];
    if (pipe(ends) != 0) return {};
    const auto start = Clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
      dup2(ends[1], STDOUT_FILENO);
      close(ends[0]);
      for (const std::string& setting : environment) putenv(const_cast<char*>(setting.c_str()));
      execl("/proc/self/exe", "bench_process_start", "--child", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(ends[1]);
    char text[128] = {};
    const ssize_t got = read(ends[0], text, sizeof text - 1);
    close(ends[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    Sample sample;
    sample.whole = msSince(start);
    if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        std::sscanf(text, "%lf %lf", &sample.construct, &sample.first) != 2) {
      return {};
    }
    samples.push_back(sample);
  }
  return samples;
}

void report(const char* what, const std::vector<Sample>& samples) {
  std::vector<double> construct, first, whole;
  for (const Sample& s : samples) {
    construct.push_back(s.construct);
    first.push_back(s.first);
    whole.push_back(s.whole);
  }
  std::printf("%-44s Advisor() %6.1f ms  first decision %6.1f ms  whole process %6.1f ms\n", what,
              percentile(construct, 0.5), percentile(first, 0.5), percentile(whole, 0.5));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--child") return child();
  const int runs = argc > 1 ? std::atoi(argv[1]) : 10;
  if (argc > 2 || runs < 1 || runs > 1000) {
    std::fprintf(stderr,
                 "usage: bench_process_start [RUNS]\n"
                 "  Starts RUNS (default 10) fresh processes that construct an Advisor and ask\n"
                 "  for one decision; the same again with the libraries copied where no PCH\n"
                 "  built with the project is found and an empty cache folder (the PCH built\n"
                 "  by the process). Medians.\n");
    return 2;
  }
  const fs::path libraries = fs::canonical("/proc/self/exe").parent_path().parent_path() / "lib";
  const fs::path scratch =
      fs::temp_directory_path() / ("deeptune-start-" + std::to_string(getpid()));
  fs::create_directories(scratch / "lib");
  for (const auto& entry : fs::directory_iterator(libraries)) {
    if (entry.path().filename().string().rfind("libdeeptune_", 0) == 0) {
      fs::copy(entry.path(), scratch / "lib" / entry.path().filename(),
               fs::copy_options::copy_symlinks);
    }
  }
  const std::vector<Sample> installed = runFresh(runs, {});
  std::vector<Sample> building;
  for (int i = 0; i < runs; ++i) {  // a new empty cache folder for every process
    const fs::path cache = scratch / ("cache" + std::to_string(i));
    const std::vector<Sample> one = runFresh(
        1, {"LD_LIBRARY_PATH=" + (scratch / "lib").string(), "DEEPTUNE_CACHE_DIR=" + cache.string(),
            "DEEPTUNE_MODELS=" + (libraries.parent_path() / "share/deeptune/models").string()});
    building.insert(building.end(), one.begin(), one.end());
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  if (installed.size() != static_cast<size_t>(runs) ||
      building.size() != static_cast<size_t>(runs)) {
    std::fprintf(stderr, "bench_process_start: a child process failed\n");
    return 1;
  }
  std::printf("fresh processes, %d each (medians):\n", runs);
  report("the PCH built with the project", installed);
  report("baseline: the process builds the PCH", building);
  std::printf("first decision: %.1fx faster with the PCH built with the project\n",
              percentile(
                  [&] {
                    std::vector<double> v;
                    for (const Sample& s : building) v.push_back(s.first);
                    return v;
                  }(),
                  0.5) /
                  percentile(
                      [&] {
                        std::vector<double> v;
                        for (const Sample& s : installed) v.push_back(s.first);
                        return v;
                      }(),
                      0.5));
  return 0;
}
