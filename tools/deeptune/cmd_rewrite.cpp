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
      "extract this kernel (normalized alone, as the paper's data)")(
      "all-kernels",
      "extract every kernel of each file (with --output-dir: DIR/<file>.<kernel>.cl)");
  addOutputOptions(options, output, outputDir);
  options.add_options()(
      "json", "write {\"file\", \"kernel\", \"text\", \"undeclared\": [...]} instead of the text");
  SourceOptionValues sourceValues;
  po::variables_map vm;
  if (!parseWithSourceOptions(
          args,
          "usage: deeptune rewrite FILE... [--kernel NAME | --all-kernels] [-D NAME[=VALUE]]... "
          "[-I DIR]...\n"
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
  const bool allKernels = vm.count("all-kernels") > 0;
  if (allKernels && vm.count("kernel")) {
    throw UsageError("rewrite: --kernel and --all-kernels exclude each other");
  }
  const std::vector<std::string> outputs =
      outputsOf("rewrite", inputs, output, outputDir, /*stemsOnly=*/allKernels);
  rewriter::Normalizer normalizer;
  size_t next = 0;
  return forEachInput("rewrite", inputs, [&](std::string& input) {
    const std::string& target = outputs[next++];
    const std::string source = readInputArgument(input);
    rewriter::RewriteNotes notes;
    std::vector<rewriter::ExtractedKernel> results;
    if (allKernels) {
      results = normalizer.extractKernels(source, input, sourceOptions, &notes);
    } else if (vm.count("kernel")) {
      results.emplace_back();
      results.back().text = normalizer.extractKernel(source, input, kernel, &results.back().name,
                                                     sourceOptions, &notes);
    } else {
      results.push_back({{}, normalizer.normalize(source, input, sourceOptions, &notes)});
    }
    const bool named = allKernels || vm.count("kernel");
    const bool eachToItsFile = allKernels && !outputDir.empty();
    std::string joined;
    for (const rewriter::ExtractedKernel& result : results) {
      std::string text = result.text + "\n";
      if (vm.count("json")) {
        nlohmann::json out = {
            {"file", input}, {"text", result.text}, {"undeclared", notes.undeclared}};
        out["kernel"] = named ? nlohmann::json(result.name.original) : nlohmann::json(nullptr);
        text = out.dump() + "\n";
      }
      if (eachToItsFile) {
        const std::string file = target + "." + result.name.original + ".cl";
        data::checkOutputNotInput(file, inputs, data::OutputKind::kFile);
        writeOutput(file, text);
      } else {
        joined += text;
      }
    }
    if (!vm.count("json")) printUndeclaredNote(input, notes.undeclared);
    if (!eachToItsFile) writeOutput(target, joined);
  });
}

}  // namespace deeptune::cli
