// deeptune --version: the program's version, the libraries it was built with, its models.
#include <filesystem>
#include <iostream>

#include "tools/deeptune/commands.hpp"
#ifdef DEEPTUNE_WITH_REWRITER
#include "api/predictor.hpp"
#include "model/model_error.hpp"
#endif

namespace deeptune::cli {

void printVersion() {
  std::cout << "deeptune " << DEEPTUNE_VERSION << "\n";
#ifdef DEEPTUNE_WITH_REWRITER
  std::cout << "rewriter: Clang/LLVM " << DEEPTUNE_LLVM_VERSION << "\n";
#endif
#ifdef DEEPTUNE_TORCH_VERSION
  std::cout << "training (deeptune-train): LibTorch " << DEEPTUNE_TORCH_VERSION << "\n";
#endif
#ifdef DEEPTUNE_WITH_REWRITER
  try {
    const std::filesystem::path model = api::findBundledModel("amd");
    std::cout << "bundled models: " << model.parent_path().string() << "\n";
  } catch (const model::ModelError& e) {
    std::cout << "bundled models: not found (" << e.what() << ")\n";
  }
#endif
}

}  // namespace deeptune::cli
