// deeptune rewrite: normalizes an OpenCL file, or extracts one kernel of it, like the paper's data.
#include <nlohmann/json.hpp>

#include "data/file_io.hpp"
#include "rewriter/normalizer.hpp"
#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {

int runRewrite(const Args& args) {
  po::options_description options("rewrite options");
  std::string input, kernel, output;
  options.add_options()("file", po::value(&input)->required(), "OpenCL source file to normalize")(
      "kernel,k", po::value(&kernel),
      "extract this kernel (normalized alone, as the paper's data)")(
      "output,o", po::value(&output)->default_value("-"), "output file ('-' = stdout)")(
      "json", "write {\"file\", \"kernel\", \"text\", \"undeclared\": [...]} instead of the text");
  SourceOptionValues sourceValues;
  addSourceOptions(options, sourceValues);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(
          args,
          "usage: deeptune rewrite FILE [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...\n"
          "                        [-o OUT] [--json]\n\n"
          "Normalizes OpenCL source: preprocess, rename identifiers, strip\n"
          "attributes, format. Without --kernel the whole file is normalized. Names the file\n"
          "uses but declares nowhere are left as written and listed on stderr (or in --json);\n"
          "any other compile error stops it (exit 2, Clang's first error and its position).",
          options, positional, vm)) {
    return kExitOk;
  }
  const data::SourceOptions sourceOptions = sourceValues.validated();
  data::checkOutputNotInput(output, {input}, data::OutputKind::kFileOrStdout);
  const std::string source = readInputArgument(input);
  rewriter::Normalizer normalizer;
  rewriter::RewriteNotes notes;
  rewriter::KernelName chosen;
  const std::string normalized =
      vm.count("kernel")
          ? normalizer.extractKernel(source, input, kernel, &chosen, sourceOptions, &notes)
          : normalizer.normalize(source, input, sourceOptions, &notes);
  if (vm.count("json")) {
    nlohmann::json out = {{"file", input}, {"text", normalized}, {"undeclared", notes.undeclared}};
    out["kernel"] = vm.count("kernel") ? nlohmann::json(chosen.original) : nlohmann::json(nullptr);
    writeOutput(output, out.dump() + "\n");
  } else {
    printUndeclaredNote(input, notes.undeclared);
    writeOutput(output, normalized + "\n");
  }
  return kExitOk;
}

}  // namespace deeptune::cli
