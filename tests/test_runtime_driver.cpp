// Tests of the kernel driver on the real PoCL CPU device: devices, argument info, payload rules,
// transfer, timings, the output checks with kernels/tests/*.cl, build logs, statistics, the CSV.
#include <catch2/catch.hpp>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "runtime/devices.hpp"
#include "runtime/driver.hpp"
#include "runtime/isolation.hpp"
#include "runtime/measure_csv.hpp"
#include "runtime/message_summary.hpp"
#include "runtime/payload.hpp"
#include "runtime/runtime_error.hpp"
#include "runtime/stats.hpp"
#include "runtime/status.hpp"
#include "tests/cli_runner.hpp"
#include "tests/test_paths.hpp"

using namespace deeptune::runtime;
using Catch::Matchers::Contains;

namespace {

std::string testKernel(const std::string& name) {
  return deeptune::test::readWholeFile(deeptune::test::sourceDir() + "/kernels/tests/" + name);
}

/// The first CPU device (PoCL on these machines); the tests need one.
int cpuDevice() {
  for (const DeviceInfo& d : listDevices()) {
    if (d.type == "CPU") return d.index;
  }
  FAIL("no OpenCL CPU device: install pocl-opencl-icd");
  return -1;
}

Measurement run(const std::string& file, const std::string& kernel, size_t gsize, int runs = 5) {
  Driver driver(cpuDevice());
  const BuildResult build = driver.build(testKernel(file));
  REQUIRE(build.ok);
  DriveOptions options;
  options.gsize = gsize;
  options.runs = runs;
  return driver.measure(kernel, options);
}

KernelArg arg(const std::string& type, AddressSpace space, bool isConst) {
  KernelArg a;
  a.name = "x";
  a.typeName = type;
  a.space = space;
  a.isConst = isConst;
  a.isPointer = !type.empty() && type.back() == '*';
  return a;
}

float asFloat(const std::vector<unsigned char>& bytes, size_t offset = 0) {
  float value;
  std::memcpy(&value, bytes.data() + offset, 4);
  return value;
}

}  // namespace

TEST_CASE("listDevices finds the PoCL CPU device with its properties", "[runtime][devices]") {
  const std::vector<DeviceInfo> devices = listDevices();
  REQUIRE_FALSE(devices.empty());
  const DeviceInfo& cpu = devices[cpuDevice()];
  CHECK(cpu.computeUnits > 0);
  CHECK(cpu.globalMemBytes > 0);
  CHECK(cpu.maxWorkGroupSize >= 1);
  CHECK_FALSE(cpu.name.empty());
  CHECK_FALSE(cpu.driverVersion.empty());
  CHECK_THAT(cpu.deviceVersion, Contains("OpenCL"));
  for (size_t i = 0; i < devices.size(); ++i) CHECK(devices[i].index == static_cast<int>(i));
  CHECK_THROWS_AS(Driver(static_cast<int>(devices.size())), RuntimeError);
}

TEST_CASE("RuntimeError names the OpenCL call and its error code", "[runtime][errors]") {
  const RuntimeError e("clBuildProgram", -11);
  CHECK(std::string(e.what()) == "clBuildProgram: CL_BUILD_PROGRAM_FAILURE");
  CHECK(e.call() == "clBuildProgram");
  CHECK(e.code() == -11);
  CHECK(clErrorName(-5) == "CL_OUT_OF_RESOURCES");
  CHECK(clErrorName(-9999) == "CL_ERROR(-9999)");
}

TEST_CASE("element types parse scalars, vectors and size_t", "[runtime][payload]") {
  struct Case {
    const char* name;
    ScalarKind kind;
    int scalarBytes, lanes;
    size_t bytes;
  };
  const Case cases[] = {
      {"float", ScalarKind::kFloat, 4, 1, 4},     {"float4", ScalarKind::kFloat, 4, 4, 16},
      {"float3", ScalarKind::kFloat, 4, 3, 16},   {"double2", ScalarKind::kFloat, 8, 2, 16},
      {"uint", ScalarKind::kUnsigned, 4, 1, 4},   {"unsigned int", ScalarKind::kUnsigned, 4, 1, 4},
      {"int", ScalarKind::kSigned, 4, 1, 4},      {"uchar4", ScalarKind::kUnsigned, 1, 4, 4},
      {"char16", ScalarKind::kSigned, 1, 16, 16}, {"ushort", ScalarKind::kUnsigned, 2, 1, 2},
      {"long", ScalarKind::kSigned, 8, 1, 8},     {"size_t", ScalarKind::kUnsigned, 8, 1, 8},
      {"half", ScalarKind::kFloat, 2, 1, 2},      {"uint2", ScalarKind::kUnsigned, 4, 2, 8},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const auto element = parseElementType(c.name, 64);
    REQUIRE(element);
    CHECK(element->kind == c.kind);
    CHECK(element->scalarBytes == c.scalarBytes);
    CHECK(element->lanes == c.lanes);
    CHECK(element->bytes() == c.bytes);
  }
  for (const char* bad : {"struct foo", "image2d_t", "sampler_t", "bool", "float5", "floaty", ""}) {
    INFO(bad);
    CHECK_FALSE(parseElementType(bad, 64));
  }
  CHECK(parseElementType("size_t", 32)->bytes() == 4);
}

TEST_CASE("payload rules: buffers of S elements, local of W, scalars S, transfer",
          "[runtime][payload]") {
  const size_t S = 1000;
  const size_t W = 64;
  const std::vector<KernelArg> args = {
      arg("float*", AddressSpace::kGlobal, true),    // const input: copied in only
      arg("float4*", AddressSpace::kGlobal, false),  // output: S float4s, in and out
      arg("int*", AddressSpace::kConstant, true),    // constant: in only
      arg("double*", AddressSpace::kLocal, false),   // local: W doubles, no transfer
      arg("int", AddressSpace::kPrivate, false),     // S
      arg("uint2", AddressSpace::kPrivate, false),   // S in each lane
      arg("float", AddressSpace::kPrivate, false),   // random in [0, 1)
      arg("uchar", AddressSpace::kPrivate, false)};  // S truncated to the type: 255
  const PayloadPlan plan = planPayload(args, S, W, 64, 7);
  REQUIRE(plan.args.size() == args.size());
  CHECK(plan.args[0].kind == ArgPayload::Kind::kBuffer);
  CHECK(plan.args[0].bytes == S * 4);
  CHECK_FALSE(plan.args[0].readBack);
  CHECK(plan.args[1].bytes == S * 16);
  CHECK(plan.args[1].readBack);
  CHECK(plan.args[2].bytes == S * 4);
  CHECK_FALSE(plan.args[2].readBack);
  CHECK(plan.args[3].kind == ArgPayload::Kind::kLocal);
  CHECK(plan.args[3].bytes == W * 8);
  int scalar = 0;
  std::memcpy(&scalar, plan.args[4].scalarValue.data(), 4);
  CHECK(scalar == static_cast<int>(S));
  uint32_t lanes[2];
  std::memcpy(lanes, plan.args[5].scalarValue.data(), 8);
  CHECK(lanes[0] == S);
  CHECK(lanes[1] == S);
  const float f = asFloat(plan.args[6].scalarValue);
  CHECK(f >= 0.0f);
  CHECK(f < 1.0f);
  CHECK(plan.args[7].scalarValue.at(0) == 255);
  // transfer: const float S*4 x1 + float4 S*16 x2 + constant int S*4 x1
  CHECK(plan.transferBytes == S * 4 + 2 * S * 16 + S * 4);

  const std::vector<KernelArg> image = {arg("image2d_t", AddressSpace::kGlobal, false)};
  CHECK_THROWS_WITH(planPayload(image, S, W, 64, 7), Contains("image2d_t"));
}

TEST_CASE("random buffers are seeded, really random, integers in [0, S]", "[runtime][payload]") {
  const ElementType i32 = *parseElementType("int", 64);
  const auto a = randomBuffer(i32, 4096, 1000, 1, 0);
  CHECK(a == randomBuffer(i32, 4096, 1000, 1, 0));
  CHECK(a != randomBuffer(i32, 4096, 1000, 1, 1));
  CHECK(a != randomBuffer(i32, 4096, 1000, 2, 0));
  std::set<int> distinct;
  for (size_t i = 0; i < 4096; ++i) {
    int v;
    std::memcpy(&v, a.data() + 4 * i, 4);
    REQUIRE(v >= 0);
    REQUIRE(v <= 1000);
    distinct.insert(v);
  }
  CHECK(distinct.size() > 900);  // not zeros, not a handful of values
  const ElementType f64 = *parseElementType("double", 64);
  const auto d = randomBuffer(f64, 1000, 1000, 1, 0);
  double sum = 0;
  for (size_t i = 0; i < 1000; ++i) {
    double v;
    std::memcpy(&v, d.data() + 8 * i, 8);
    REQUIRE(v >= 0.0);
    REQUIRE(v < 1.0);
    sum += v;
  }
  CHECK(sum / 1000 == Approx(0.5).margin(0.05));
}

TEST_CASE("build reads kernel names and argument info", "[runtime][driver]") {
  Driver driver(cpuDevice());
  const BuildResult build = driver.build(testKernel("ok.cl"));
  REQUIRE(build.ok);
  CHECK(build.kernels == std::vector<std::string>{"saxpy", "scale4"});
  const std::vector<KernelArg> args = driver.kernelArgs("saxpy");
  REQUIRE(args.size() == 4);
  CHECK(args[0].name == "x");
  CHECK(args[0].typeName == "float*");
  CHECK(args[0].space == AddressSpace::kGlobal);
  CHECK(args[0].isConst);
  CHECK(args[0].isPointer);
  CHECK(args[1].name == "y");
  CHECK_FALSE(args[1].isConst);
  CHECK(args[2].typeName == "float");
  CHECK(args[2].space == AddressSpace::kPrivate);
  CHECK_FALSE(args[2].isPointer);
  CHECK(args[3].typeName == "int");
  const std::vector<KernelArg> vector = driver.kernelArgs("scale4");
  CHECK(vector[0].typeName == "float4*");
  CHECK(vector[1].typeName == "uint");
  CHECK_THROWS_AS(driver.kernelArgs("missing"), RuntimeError);
}

TEST_CASE("a build error returns the compiler's log", "[runtime][driver]") {
  Driver driver(cpuDevice());
  const BuildResult build = driver.build(testKernel("build_error.cl"));
  CHECK_FALSE(build.ok);
  CHECK(build.kernels.empty());
  CHECK_THAT(build.log, Contains("undeclared_value"));
  const Measurement m = driver.measure("broken", DriveOptions{});
  CHECK(m.status == Status::kRunError);  // no program: nothing to run
}

TEST_CASE("a well-behaved kernel: timings, transfer, sizes, status OK", "[runtime][driver]") {
  const Measurement m = run("ok.cl", "saxpy", 1024, 5);
  INFO(m.message);
  CHECK(m.status == Status::kOk);
  CHECK(m.failedChecks.empty());
  CHECK(m.wgsize == 256);
  CHECK(m.globalSize == 1024);
  CHECK(m.transferBytes == 1024 * 4 * 3);  // x in; y in and out
  REQUIRE(m.runs.size() == 5);
  for (const RunTiming& t : m.runs) {
    CHECK(t.h2dNs > 0);
    CHECK(t.kernelNs > 0);
    CHECK(t.d2hNs > 0);
    CHECK(t.totalNs() == t.h2dNs + t.kernelNs + t.d2hNs);
  }
  REQUIRE(m.outputs.size() == 1);  // y only: x is const
  CHECK(m.outputs[0].bytes.size() == 1024 * 4);

  const Measurement v = run("ok.cl", "scale4", 512, 5);
  CHECK(v.status == Status::kOk);
  CHECK(v.transferBytes == 2 * 512 * 16);  // S float4s, in and out
  REQUIRE(v.outputs.size() == 1);
  CHECK(v.outputs[0].bytes.size() == 512 * 16);
}

TEST_CASE("global size rounds up to the work-group size; defaults clamp to S",
          "[runtime][driver]") {
  Driver driver(cpuDevice());
  REQUIRE(driver.build(testKernel("ok.cl")).ok);
  DriveOptions options;
  options.gsize = 1000;
  options.wgsize = 64;
  options.runs = 5;
  Measurement m = driver.measure("saxpy", options);
  CHECK(m.status == Status::kOk);
  CHECK(m.wgsize == 64);
  CHECK(m.globalSize == 1024);
  CHECK(m.transferBytes == 1000 * 12);
  options.gsize = 100;
  options.wgsize = 0;  // default min(S, 256)
  m = driver.measure("saxpy", options);
  CHECK(m.wgsize == 100);
  CHECK(m.globalSize == 100);
  options.wgsize = 1u << 20;  // above every limit: clamped
  options.gsize = 4096;
  m = driver.measure("saxpy", options);
  CHECK(m.wgsize <= driver.device().maxWorkGroupSize);
  CHECK(m.globalSize % m.wgsize == 0);
}

TEST_CASE("the checks catch what they claim", "[runtime][driver][checks]") {
  SECTION("a kernel writing constants is INPUT_INSENSITIVE") {
    const Measurement m = run("input_insensitive.cl", "constants", 4096);
    CHECK(m.status == Status::kInputInsensitive);
    CHECK(m.failedChecks == std::vector<Status>{Status::kInputInsensitive});
    CHECK(m.hasTimings());
  }
  SECTION("a kernel writing nothing is NO_OUTPUT") {
    const Measurement m = run("no_output.cl", "nothing", 4096);
    CHECK(m.status == Status::kNoOutput);
    CHECK(m.failedChecks == std::vector<Status>{Status::kNoOutput});
    CHECK(m.hasTimings());
  }
  SECTION("an atomics race is NONDETERMINISTIC") {
    if (listDevices()[cpuDevice()].computeUnits < 2) {
      WARN("one compute unit: work-groups never overlap, the race cannot show");
      return;
    }
    const Measurement m = run("nondeterministic.cl", "race", 65536, 8);
    CHECK(m.status == Status::kNondeterministic);
    CHECK_THAT(m.message, Contains("NONDETERMINISTIC"));
  }
  SECTION("the well-behaved kernels pass every check") {
    CHECK(run("ok.cl", "saxpy", 65536).status == Status::kOk);
    CHECK(run("ok.cl", "scale4", 65536).status == Status::kOk);
  }
}

TEST_CASE("the guard zone absorbs an index that overruns S", "[runtime][driver]") {
  const std::string source =
      "__kernel void over(__global float* a, const int n) {\n"
      "  a[get_global_id(0) * 64 + n] = 1.0f;  // up to 65 S: far past the S elements\n"
      "}\n";
  Driver driver(cpuDevice());
  REQUIRE(driver.build(source).ok);
  DriveOptions options;
  options.gsize = 1024;  // writes reach 256 KiB past the 4 KiB buffer: inside the 16 MiB guard
  options.runs = 5;
  const Measurement m = driver.measure("over", options);
  CHECK(m.hasTimings());
  CHECK(m.status == Status::kNoOutput);  // nothing lands in the S elements themselves
}

TEST_CASE("outputs across devices agree within the tolerance", "[runtime][checks]") {
  auto floats = [](std::vector<float> values) {
    OutputBuffer b;
    b.element = *parseElementType("float", 64);
    b.bytes.resize(values.size() * 4);
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    return std::vector<OutputBuffer>{b};
  };
  auto ints = [](std::vector<int> values) {
    OutputBuffer b;
    b.element = *parseElementType("int", 64);
    b.bytes.resize(values.size() * 4);
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    return std::vector<OutputBuffer>{b};
  };
  CHECK(outputsAgree(floats({1, 2, 3}), floats({1, 2, 3})));
  CHECK(outputsAgree(floats({1000, 2, 0}), floats({1000.5f, 2.0001f, 1e-6f})));
  std::string where;
  CHECK_FALSE(outputsAgree(floats({1, 2, 3}), floats({1, 2.1f, 3}), &where));
  CHECK(where == "output buffer 0 element 1");
  CHECK(outputsAgree(floats({NAN}), floats({NAN})));
  CHECK_FALSE(outputsAgree(floats({NAN}), floats({1})));
  CHECK(outputsAgree(ints({7, 8}), ints({7, 8})));
  CHECK_FALSE(outputsAgree(ints({7, 8}), ints({7, 9})));
  CHECK_FALSE(outputsAgree(floats({1, 2}), floats({1, 2, 3})));

  Measurement a, b, c;
  for (Measurement* m : {&a, &b, &c}) m->runs = {RunTiming{1, 1, 1}};
  a.outputs = floats({1, 2});
  b.outputs = floats({1, 2});
  c.outputs = floats({1, 5});
  checkDevicesAgree({&a, &b});
  CHECK(a.status == Status::kOk);
  checkDevicesAgree({&a, &b, &c});
  for (Measurement* m : {&a, &b, &c}) {
    CHECK(m->status == Status::kDevicesDisagree);
    CHECK(m->failedChecks == std::vector<Status>{Status::kDevicesDisagree});
  }
  Measurement nondeterministic;
  nondeterministic.runs = {RunTiming{1, 1, 1}};
  nondeterministic.failedChecks = {Status::kNondeterministic};
  nondeterministic.status = Status::kNondeterministic;
  nondeterministic.outputs = floats({9, 9});
  Measurement d;
  d.runs = {RunTiming{1, 1, 1}};
  d.outputs = floats({1, 2});
  checkDevicesAgree({&d, &nondeterministic});  // only d reached the check: nothing to compare
  CHECK(d.status == Status::kOk);
}

TEST_CASE("statuses: names and precedence", "[runtime][status]") {
  for (Status s : {Status::kOk, Status::kBuildError, Status::kTimeout, Status::kCrash,
                   Status::kRunError, Status::kNoOutput, Status::kNondeterministic,
                   Status::kInputInsensitive, Status::kFactorDisagrees, Status::kDevicesDisagree}) {
    CHECK(parseStatus(statusName(s)) == s);
  }
  CHECK(statusName(Status::kDevicesDisagree) == "DEVICES_DISAGREE");
  CHECK(statusName(Status::kFactorDisagrees) == "FACTOR_DISAGREES");
  CHECK(worstStatus({Status::kDevicesDisagree, Status::kFactorDisagrees}) ==
        Status::kFactorDisagrees);
  CHECK_FALSE(parseStatus("FINE"));
  CHECK(worstStatus({}) == Status::kOk);
  CHECK(worstStatus({Status::kInputInsensitive, Status::kNondeterministic}) ==
        Status::kNondeterministic);
  CHECK(worstStatus({Status::kDevicesDisagree, Status::kNoOutput}) == Status::kNoOutput);
  CHECK(worstStatus({Status::kRunError, Status::kTimeout}) == Status::kTimeout);
}

TEST_CASE("median and its 95% interval", "[runtime][stats]") {
  CHECK(median({}) == 0);
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == 2.5);
  double low = 0, high = 0;
  medianInterval95({5, 1, 4, 2, 3}, low, high);  // n = 5: only [min, max] (93.75%)
  CHECK(low == 1);
  CHECK(high == 5);
  medianInterval95({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, low, high);  // n = 10: [x2, x9] (97.9%)
  CHECK(low == 2);
  CHECK(high == 9);
  std::vector<double> many;
  for (int i = 1; i <= 100; ++i) many.push_back(i);
  medianInterval95(many, low, high);  // n = 100: [x40, x61]
  CHECK(low == 40);
  CHECK(high == 61);
  const TimingSummary s = summarize({{1, 10, 100}, {2, 20, 200}, {3, 30, 300}});
  CHECK(s.runs == 3);
  CHECK(s.h2dNs == 2);
  CHECK(s.kernelNs == 20);
  CHECK(s.d2hNs == 200);
  CHECK(s.totalNs == 222);
}

TEST_CASE("measure CSV: header, row values, message summary", "[runtime][csv]") {
  DeviceInfo cpu;
  cpu.index = 0;
  cpu.name = "pocl-cpu";
  cpu.type = "CPU";
  DeviceInfo gpu;
  gpu.index = 1;
  gpu.name = "H200";
  gpu.type = "GPU";
  const std::vector<std::string> header = measureCsvHeader({cpu, gpu});
  REQUIRE(header.size() == 8 + 2 * 13 + 1);
  CHECK(header[0] == "benchmark");
  CHECK(header[7] == "runtime_gpu");
  CHECK(header[8] == "dev0_name");
  CHECK(header[10] == "dev0_status");
  CHECK(header[13] == "dev0_kernel_ns");
  CHECK(header[21] == "dev1_name");
  CHECK(header.back() == "src");

  KernelResult result;
  result.kernel = "k";
  result.gsize = 1024;
  Measurement onCpu;
  onCpu.wgsize = 256;
  onCpu.transferBytes = 12288;
  onCpu.runs = {{100, 2000000, 100}, {100, 3000000, 100}, {100, 4000000, 100}};
  Measurement onGpu = onCpu;
  onGpu.runs = {{100, 1000, 100}};
  onGpu.failedChecks = {Status::kNondeterministic, Status::kInputInsensitive};
  onGpu.status = Status::kNondeterministic;
  result.devices = {onCpu, onGpu};
  std::vector<std::string> row = measureCsvRow("bench", result, {cpu, gpu}, "");
  REQUIRE(row.size() == header.size());
  CHECK(row[0] == "bench");
  CHECK(row[1] == "1024");
  CHECK(row[3] == "256");
  CHECK(row[4] == "12288");
  CHECK(row[5] == "GPU");
  CHECK(row[6] == "3.000200");
  CHECK(row[7] == "0.001200");
  CHECK(row[10] == "OK");
  CHECK(row[13] == "3000000");
  CHECK(row[23] == "NONDETERMINISTIC");
  CHECK(row[24] == "NONDETERMINISTIC+INPUT_INSENSITIVE");
  CHECK(row.back().empty());

  result.devices[1] = Measurement{};
  result.devices[1].status = Status::kCrash;
  row = measureCsvRow("bench", result, {cpu, gpu}, "src");
  CHECK(row[5].empty());  // no GPU time: no CPU/GPU oracle
  CHECK(row[7].empty());
  CHECK(row[26].empty());  // dev1_kernel_ns
  CHECK(row.back() == "src");
  row = measureCsvRow("bench", KernelResult{"k", 8, {onCpu}}, {cpu}, "");
  CHECK(row[5] == "pocl-cpu");  // one device: the fastest device's name

  CHECK(summarizeMessage("warning: x\n  error: use of undeclared identifier 'B'\nnote: y\n") ==
        "error: use of undeclared identifier 'B'");
  CHECK(summarizeMessage("first\n\nsecond") == "first | second");
  CHECK(summarizeMessage(std::string(1000, 'e'), 10).size() == 13);
}

TEST_CASE("requests round-trip; kernel names are scanned from text", "[runtime][isolation]") {
  MeasureRequest r;
  r.source = "a\tb\nc\\d\r";
  r.kernels = {"k1", "k 2"};
  r.gsizes = {1, 1024};
  r.wgsize = 64;
  r.runs = 7;
  r.seed = 99;
  r.guardBytes = 4096;
  r.startItem = 3;
  const MeasureRequest back = decodeRequest(encodeRequest(r));
  CHECK(back.source == r.source);
  CHECK(back.kernels == r.kernels);
  CHECK(back.gsizes == r.gsizes);
  CHECK(back.wgsize == 64);
  CHECK(back.runs == 7);
  CHECK(back.seed == 99);
  CHECK(back.guardBytes == 4096);
  CHECK(back.startItem == 3);
  CHECK_THROWS_AS(decodeRequest("garbage"), RuntimeError);

  CHECK(scanKernelNames(testKernel("ok.cl")) == std::vector<std::string>{"saxpy", "scale4"});
  CHECK(scanKernelNames("kernel void a(int x) {}\n__kernel __attribute__((reqd_work_group_size("
                        "64, 1, 1))) void b(int y) {}\nvoid helper(void) {}\n") ==
        std::vector<std::string>{"a", "b"});
}
