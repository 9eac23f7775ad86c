// A user's OpenCL program: the installed launcher picks the device and runs y = a x + y there.
#include <deeptune/api/launcher.hpp>
#include <deeptune/version.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/launch_arg.hpp"  // the application's own header of a name deeptune uses too

int main() {
  const app::LaunchArg own;  // the application's, not deeptune's
  if (std::strcmp(deeptune::version(), DEEPTUNE_VERSION_STRING) != 0) {
    return std::printf("library %s, headers %s\n", deeptune::version(), DEEPTUNE_VERSION_STRING), 1;
  }
  const std::string model = deeptune::api::Advisor().modelPath();
  if (model.size() < 16 || model.compare(model.size() - 16, 16, "devmap-amd.model") != 0) {
    return std::printf("the advisor's model file: '%s'\n", model.c_str()), 1;
  }
  std::printf("deeptune %s (slot %d), model %s\n", deeptune::version(), own.slot, model.c_str());
  const char* source =
      "__kernel void saxpy(__global const float* x, __global float* y, const float a) {\n"
      "  const int i = get_global_id(0);\n  y[i] = a * x[i] + y[i];\n}\n";
  const int n = 1 << 16;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  deeptune::api::Launcher launcher;  // bundled model, found beside the installed library
  const deeptune::api::LaunchResult result = launcher.launch(
      source, "saxpy",
      {deeptune::api::inputBuffer(x.data(), n * sizeof(float)),
       deeptune::api::outputBuffer(y.data(), n * sizeof(float)), deeptune::api::value(3.0f)},
      n);
  const deeptune::api::Decision& d = result.decision;
  std::printf("decision: %s on %s, probability %.2f%s%s\n", d.deviceType.c_str(),
              d.deviceName.c_str(), d.probability, d.fallback ? ", fallback: " : "",
              d.reason.c_str());
  for (float v : y) {
    if (v != 5.0f) return std::printf("wrong result %f\n", v), 1;
  }
  std::printf("saxpy verified on %d elements\n", n);
  return d.fallback ? 1 : 0;
}
