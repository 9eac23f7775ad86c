// libFuzzer target: the model-file loader (format checks, header, weights) and a prediction with
// what it accepts (tests/fuzz/README.md).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "model/inference_model.hpp"
#include "model/model_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/deeptune-fuzz-model-" + std::to_string(::getpid());
  if (FILE* out = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, out);
    std::fclose(out);
  }
  try {
    const auto model = deeptune::model::InferenceModel::load(path);
    deeptune::model::Example example;
    example.tokens = {0, 1, 2};
    example.aux.assign(model.info().auxInputs.size(), 1.0f);
    (void)model.predict(example);
  } catch (const deeptune::model::ModelError&) {
  }
  return 0;
}
