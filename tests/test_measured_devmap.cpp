// Tests of the measure CSV read as device-mapping rows (data/measured_devmap.hpp).
#include <catch2/catch.hpp>

#include <string>

#include "data/csv_reader.hpp"
#include "data/measured_devmap.hpp"

namespace dd = deeptune::data;
using Catch::Matchers::Contains;

namespace {

const std::string kHeader =
    "benchmark,dataset,gsize,wgsize,transfer,oracle,runtime_cpu,runtime_gpu,dev0_name,dev0_type,"
    "dev0_status,dev0_checks,dev0_wgsize,dev0_kernel_ns,dev0_h2d_ns,dev0_d2h_ns,dev0_total_ns,"
    "dev0_ci_low_ns,dev0_ci_high_ns,dev0_runs,dev0_message,dev1_name,dev1_type,dev1_status,"
    "dev1_checks,dev1_wgsize,dev1_kernel_ns,dev1_h2d_ns,dev1_d2h_ns,dev1_total_ns,"
    "dev1_ci_low_ns,dev1_ci_high_ns,dev1_runs,dev1_message,src\n";

/// One row: device 0 and 1 with a status, a median and its interval (ns).
std::string row(const std::string& benchmark, const std::string& dev0, const std::string& type0,
                const std::string& status0, int total0, int low0, int high0,
                const std::string& dev1, const std::string& type1, const std::string& status1,
                int total1, int low1, int high1) {
  const auto device = [](const std::string& name, const std::string& type,
                         const std::string& status, int total, int low, int high) {
    return name + "," + type + "," + status + ",,64,1,1,1," + std::to_string(total) + "," +
           std::to_string(low) + "," + std::to_string(high) + ",6,,";
  };
  return benchmark + ",1024,1024,64,8192,,,," + device(dev0, type0, status0, total0, low0, high0) +
         device(dev1, type1, status1, total1, low1, high1) + "\"__kernel void k() {}\"\n";
}

}  // namespace

TEST_CASE("measured devmap: labels, ties, skipped rows", "[data][measured]") {
  const std::string text =
      kHeader +
      row("a.cl:k", "basic", "CPU", "OK", 100, 90, 110, "pthread", "CPU", "OK", 300, 280, 320) +
      row("a.cl:k", "basic", "CPU", "OK", 300, 290, 310, "pthread", "CPU", "INPUT_INSENSITIVE", 100,
          95, 105) +
      row("b.cl:j", "basic", "CPU", "NONDETERMINISTIC", 100, 80, 120, "pthread", "CPU", "OK", 110,
          100, 130) +
      row("c.cl:m", "basic", "CPU", "NO_OUTPUT", 100, 90, 110, "pthread", "CPU", "OK", 300, 280,
          320) +
      row("d.cl:n", "basic", "CPU", "OK", 100, 90, 110, "pthread", "CPU", "BUILD_ERROR", 300, 280,
          320);
  const dd::MeasuredDevmap m = dd::measuredDevmap(dd::parseCsv(text, "t.csv"));
  CHECK(m.devices[0].name == "basic");
  CHECK(m.devices[1].name == "pthread");
  REQUIRE(m.rows.size() == 3);
  CHECK(m.skipped == 2);
  CHECK(m.rows[0].oracle == "CPU");  // the first slot: basic
  CHECK_FALSE(m.rows[0].tie);
  CHECK(m.rows[1].oracle == "GPU");  // pthread, faster
  CHECK(m.rows[2].tie);              // intervals 80-120 and 100-130 overlap
  CHECK(m.rows[0].runtimeCpu == Approx(100e-6));
  CHECK(m.rows[0].runtimeGpu == Approx(300e-6));
  CHECK(m.kernels == std::vector<std::string>{"k", "k", "j"});
  CHECK(m.rows[0].transfer == 8192);
  CHECK(m.rows[0].wgsize == 64);
}

TEST_CASE("measured devmap: a CPU and a GPU keep the paper's slots", "[data][measured]") {
  const std::string text = kHeader + row("a.cl:k", "gpu0", "GPU", "OK", 100, 90, 110, "cpu0", "CPU",
                                         "OK", 300, 280, 320);
  const dd::MeasuredDevmap m = dd::measuredDevmap(dd::parseCsv(text, "t.csv"));
  CHECK(m.devices[0].name == "cpu0");
  CHECK(m.devices[1].name == "gpu0");
  REQUIRE(m.rows.size() == 1);
  CHECK(m.rows[0].oracle == "GPU");
  CHECK(m.rows[0].runtimeGpu == Approx(100e-6));
}

TEST_CASE("measured devmap: bad files are refused with their position", "[data][measured]") {
  const std::string good =
      row("a.cl:k", "basic", "CPU", "OK", 100, 90, 110, "pthread", "CPU", "OK", 300, 280, 320);
  SECTION("no usable row") {
    const std::string text = kHeader + row("a.cl:k", "basic", "CPU", "CRASH", 100, 90, 110,
                                           "pthread", "CPU", "OK", 3, 2, 4);
    CHECK_THROWS_WITH(dd::measuredDevmap(dd::parseCsv(text, "t.csv")),
                      Contains("t.csv:1:1: no row has usable timings on both devices (1 rows"));
  }
  SECTION("another device in a later row") {
    const std::string text =
        kHeader + good +
        row("a.cl:k", "basic", "CPU", "OK", 100, 90, 110, "other", "CPU", "OK", 300, 280, 320);
    CHECK_THROWS_WITH(dd::measuredDevmap(dd::parseCsv(text, "t.csv")),
                      Contains("t.csv:3:") && Contains("another device than the first row's"));
  }
  SECTION("not a measure CSV") {
    CHECK_THROWS_WITH(dd::measuredDevmap(dd::parseCsv("a,b\n1,2\n", "t.csv")),
                      Contains("t.csv:1:1: not a measure CSV"));
  }
  SECTION("a bad number") {
    std::string text = kHeader + good;
    text.replace(text.find(",8192,"), 6, ",-5,");
    CHECK_THROWS_WITH(dd::measuredDevmap(dd::parseCsv(text, "t.csv")), Contains("t.csv:2:"));
  }
}
