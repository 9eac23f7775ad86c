// deeptune rewrite: normalizes OpenCL files, or extracts one kernel of each, like the paper's data.
#include <nlohmann/json.hpp>

#include "data/file_io.hpp"
#include "rewriter/normalizer.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/each_input.hpp"

namespace deeptune::cli {

int runRewrite(const Args& args) {
  po::options_description options("rewrite options");
  std::vector<std::string> inputs;
  std::string kernel, output, outputDir;
  options.add_options()("file", po::value(&inputs), "OpenCL source files to normalize")(
      "kernel,k", po::value(&kernel),
      "extract this kernel (normalized alone, as the paper's data)");
  addOutputOptions(options, output, outputDir);
  options.add_options()(
      "json", "write {\"file\", \"kernel\", \"text\", \"undeclared\": [...]} instead of the text");
  SourceOptionValues sourceValues;
  po::variables_map vm;
  if (!parseWithSourceOptions(
          args,
          "usage: deeptune rewrite FILE... [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...\n"
          "                        [-o OUT | --output-dir DIR] [--json]\n\n"
          "Normalizes OpenCL source: preprocess, rename identifiers, strip\n"
          "attributes, format. Without --kernel the whole file is normalized. Names the file\n"
          "uses but declares nowhere are left as written and listed on stderr (or in --json);\n"
          "any other compile error fails the file (exit 2, Clang's first error and its\n"
          "position); the other files still run.",
          options, sourceValues, vm)) {
    return kExitOk;
  }
  const data::SourceOptions sourceOptions = sourceValues.validated();
  const std::vector<std::string> outputs = outputsOf("rewrite", inputs, output, outputDir);
  rewriter::Normalizer normalizer;
  size_t next = 0;
  return forEachInput("rewrite", inputs, [&](std::string& input) {
    const std::string& target = outputs[next++];
    const std::string source = readInputArgument(input);
    rewriter::RewriteNotes notes;
    rewriter::KernelName chosen;
    const std::string normalized =
        vm.count("kernel")
            ? normalizer.extractKernel(source, input, kernel, &chosen, sourceOptions, &notes)
            : normalizer.normalize(source, input, sourceOptions, &notes);
    if (vm.count("json")) {
      nlohmann::json out = {
          {"file", input}, {"text", normalized}, {"undeclared", notes.undeclared}};
      out["kernel"] =
          vm.count("kernel") ? nlohmann::json(chosen.original) : nlohmann::json(nullptr);
      writeOutput(target, out.dump() + "\n");
    } else {
      printUndeclaredNote(input, notes.undeclared);
      writeOutput(target, normalized + "\n");
    }
  });
}

}  // namespace deeptune::cli
