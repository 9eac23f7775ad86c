// deeptune-advisor-example: an OpenCL application written the usual way (its own context, queue
// and buffers, a 2-D kernel) that asks the DeepTune advisor which device to run on.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "example_kernels.hpp"  // kernels/examples/*.cl
#include "api/advisor.hpp"

namespace {

void check(cl_int status, const char* call) {
  if (status == CL_SUCCESS) return;
  std::fprintf(stderr, "deeptune-advisor-example: %s failed (%d)\n", call, status);
  std::exit(1);
}

std::vector<cl_device_id> allDevices() {
  cl_uint platformCount = 0;
  check(clGetPlatformIDs(0, nullptr, &platformCount), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(platformCount);
  check(clGetPlatformIDs(platformCount, platforms.data(), nullptr), "clGetPlatformIDs");
  std::vector<cl_device_id> devices;
  for (cl_platform_id platform : platforms) {
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
    std::vector<cl_device_id> found(count);
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, found.data(), nullptr),
          "clGetDeviceIDs");
    devices.insert(devices.end(), found.begin(), found.end());
  }
  return devices;
}

}  // namespace

constexpr const char* kUsage =
    "usage: deeptune-advisor-example\n"
    "\n"
    "An OpenCL application written the usual way (its own context, queue and buffers) that\n"
    "asks deeptune's Advisor which of this machine's OpenCL devices should run its 2-D box\n"
    "blur (512x256 floats, work-groups of 16x16), runs the kernel there and checks the result\n"
    "against the host's blur. The advisor uses the bundled AMD model in this process; the\n"
    "source is tools/advisor_example/main.cpp (docs/embedding.md explains each step). It\n"
    "takes no options; POCL_DEVICES=\"pthread basic\" gives PoCL's two CPU devices.\n";

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      return 0;
    }
    std::fprintf(stderr,
                 "deeptune-advisor-example: unknown argument '%s' (it takes none; --help)\n",
                 arg.c_str());
    return 2;
  }
  const int width = 512, height = 256;
  const size_t bytes = sizeof(float) * width * height;
  std::vector<float> image(width * height), blurred(width * height);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>((i * 7919) % 256);

  // The integration: describe the launch, ask, use the answer.
  deeptune::api::Advisor advisor;  // the bundled AMD model, in this process
  deeptune::api::LaunchQuery launch;
  launch.source = kBoxBlurSource;
  launch.kernel = "box_blur";
  launch.candidates = allDevices();
  launch.range = {{width, height}, {16, 16}};
  launch.transferBytes = bytes /* in */ + 2 * bytes /* out, copied in and back */;
  const deeptune::api::Decision decision = advisor.advise(launch);
  std::printf(
      "asked the advisor about box_blur: %dx%d work-items in 16x16 groups, moving %zu "
      "bytes (the input once, the output twice), on %zu candidate devices\n",
      width, height, static_cast<size_t>(launch.transferBytes), launch.candidates.size());
  std::printf("advisor: %s on %s (%s, probability %.2f%s%s)\n", decision.deviceType.c_str(),
              decision.deviceName.c_str(), decision.method.c_str(), decision.probability,
              decision.fallback ? ", fallback: " : "", decision.reason.c_str());
  if (decision.nearestDistance >= 0) {
    std::printf(
        "  the kernel's novelty: %.2f (its distance to the nearest program the model "
        "learned from; docs/embedding.md)\n",
        decision.nearestDistance);
  }
  if (!decision.note.empty()) std::printf("  note: %s\n", decision.note.c_str());

  // The application's own OpenCL, on the chosen device.
  cl_int status = CL_SUCCESS;
  cl_device_id device = decision.device;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
  check(status, "clCreateCommandQueue");
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, image.data(),
                             &status);
  check(status, "clCreateBuffer");
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, nullptr, &status);
  check(status, "clCreateBuffer");
  cl_program program = clCreateProgramWithSource(context, 1, &kBoxBlurSource, nullptr, &status);
  check(status, "clCreateProgramWithSource");
  check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
  cl_kernel kernel = clCreateKernel(program, "box_blur", &status);
  check(status, "clCreateKernel");
  check(clSetKernelArg(kernel, 0, sizeof in, &in), "clSetKernelArg");
  check(clSetKernelArg(kernel, 1, sizeof out, &out), "clSetKernelArg");
  check(clSetKernelArg(kernel, 2, sizeof width, &width), "clSetKernelArg");
  check(clSetKernelArg(kernel, 3, sizeof height, &height), "clSetKernelArg");
  const size_t global[2] = {width, height}, local[2] = {16, 16};
  check(clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes, blurred.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);

  // The host's answer.
  int wrong = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float sum = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int sx = std::min(std::max(x + dx, 0), width - 1);
          const int sy = std::min(std::max(y + dy, 0), height - 1);
          sum += image[sy * width + sx];
        }
      }
      const float expected = sum / 9.0f;
      if (std::abs(blurred[y * width + x] - expected) > 1e-3f * (1 + std::abs(expected))) ++wrong;
    }
  }
  if (wrong != 0) {
    std::printf("%d pixels differ from the host's blur\n", wrong);
    return 1;
  }
  std::printf("blurred %dx%d image on %s, verified against the host's blur\n", width, height,
              decision.deviceName.c_str());
  return 0;
}
