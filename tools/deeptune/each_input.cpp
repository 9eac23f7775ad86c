// What exit code an error means, and a command run over many input files, one result each.
#include "tools/deeptune/each_input.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "data/one_line_error.hpp"
#ifdef DEEPTUNE_WITH_REWRITER
#include "rewriter/rewrite_error.hpp"
#endif
#ifndef DEEPTUNE_LEAN
#include "tokenizer/vocab_error.hpp"
#endif
#include "tools/deeptune/cli_common.hpp"

namespace deeptune::cli {

int exitCodeOf(const std::exception& error) {
#ifdef DEEPTUNE_WITH_REWRITER
  // The rewriter's own setup failing (its PCH cannot be built) is a runtime failure.
  const auto* rewrite = dynamic_cast<const rewriter::RewriteError*>(&error);
  if (rewrite != nullptr) return rewrite->aboutInput() ? kExitBadInput : kExitFailure;
#endif
  const bool badInput = dynamic_cast<const UsageError*>(&error) != nullptr ||
                        dynamic_cast<const po::error*>(&error) != nullptr ||
#ifndef DEEPTUNE_LEAN
                        dynamic_cast<const tokenizer::VocabError*>(&error) != nullptr ||
#endif
                        dynamic_cast<const data::OneLineError*>(&error) != nullptr ||
                        dynamic_cast<const data::DataError*>(&error) != nullptr;
  return badInput ? kExitBadInput : kExitFailure;
}

int forEachInput(const std::string& command, const std::vector<std::string>& inputs,
                 const std::function<void(std::string&)>& each) {
  size_t failed = 0;
  for (std::string input : inputs) {
    try {
      each(input);
    } catch (const std::exception& e) {
      if (exitCodeOf(e) != kExitBadInput || inputs.size() == 1) throw;
      std::cout.flush();  // keep the results and the error lines in input order on a terminal
      std::cerr << "deeptune: " << e.what() << "\n";
      ++failed;
    }
  }
  if (failed == 0) return kExitOk;
  std::cerr << "deeptune: " << command << ": " << failed << " of " << inputs.size()
            << " inputs failed\n";
  return kExitBadInput;
}

std::vector<std::string> outputsOf(const std::string& command,
                                   const std::vector<std::string>& inputs,
                                   const std::string& output, const std::string& outputDir,
                                   bool stemsOnly) {
  if (inputs.empty()) throw UsageError(command + ": no input file given");
  if (!outputDir.empty() && output != "-") {
    throw UsageError(command + ": -o and --output-dir exclude each other");
  }
  std::vector<std::string> outputs;
  if (outputDir.empty()) {
    if (inputs.size() > 1 && output != "-") {
      throw UsageError(command + ": " + std::to_string(inputs.size()) +
                       " input files need --output-dir DIR (one output each), not -o");
    }
    data::checkOutputNotInput(output, inputs, data::OutputKind::kFileOrStdout);
    return std::vector<std::string>(inputs.size(), output);
  }
  std::error_code error;
  // A dangling link counts as something in the way (its target is not made).
  const bool exists = std::filesystem::exists(std::filesystem::symlink_status(outputDir, error));
  if (exists && !std::filesystem::is_directory(outputDir, error)) {
    throw UsageError(command + ": --output-dir " + outputDir + " is not a folder");
  }
  std::set<std::string> names;
  for (const std::string& input : inputs) {
    const std::string name =
        input == "-" ? "stdin.cl" : std::filesystem::path(input).filename().string();
    if (name.empty() || !names.insert(name).second) {
      throw UsageError(command + ": two inputs would write " + outputDir + "/" + name +
                       " (inputs of one --output-dir need distinct file names)");
    }
    outputs.push_back((std::filesystem::path(outputDir) / name).string());
    if (stemsOnly) {
      outputs.back() =
          (std::filesystem::path(outputDir) / std::filesystem::path(name).stem()).string();
    } else {
      data::checkOutputNotInput(outputs.back(), inputs, data::OutputKind::kFile);
    }
  }
  // A missing folder is made (with its parents), as compilers and formatters do, once the
  // outputs are known to be distinct; something else in its place is never replaced.
  if (!exists && !std::filesystem::create_directories(outputDir, error) &&
      !std::filesystem::is_directory(outputDir)) {
    throw UsageError(command + ": --output-dir " + outputDir +
                     ": cannot make the folder: " + error.message());
  }
  return outputs;
}

}  // namespace deeptune::cli
