// deeptune coarsen: thread coarsening of kernels (SPEC §1), printing the host's launch rule.
#include <iostream>

#include <nlohmann/json.hpp>

#include "data/file_io.hpp"
#include "rewriter/normalizer.hpp"
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/each_input.hpp"

namespace deeptune::cli {

int runCoarsen(const Args& args) {
  po::options_description options("coarsen options");
  std::vector<std::string> inputs;
  std::string kernel, output, outputDir;
  int factor = 0;
  options.add_options()("file", po::value(&inputs), "OpenCL source files")(
      "kernel,k", po::value(&kernel), "the kernel to coarsen (default: the file's only one)")(
      "factor", po::value(&factor)->required(), "coarsening factor, 2 to 1024")(
      "stride", "interleave: a work-item does items a local size apart (default: consecutive)");
  addOutputOptions(options, output, outputDir);
  options.add_options()(
      "json", "write {\"file\", \"kernel\", \"factor\", \"stride\", \"source\", \"host_rule\"}");
  SourceOptionValues sourceValues;
  po::variables_map vm;
  if (!parseWithSourceOptions(
          args,
          "usage: deeptune coarsen FILE... --factor CF [--kernel NAME] [--stride]\n"
          "                        [-D NAME[=VALUE]]... [-I DIR]... [-o OUT | --output-dir DIR]\n"
          "                        [--json]\n\n"
          "Thread coarsening: each work-item of the kernel does CF original work-items of\n"
          "dimension 0. Writes the preprocessed file with the kernel coarsened and prints on\n"
          "stderr how the host must change its launch. Kernels it cannot coarsen safely\n"
          "(barriers or __local variables in the body, a return inside a loop, work-item\n"
          "functions in helpers) are refused with the line and the reason.",
          options, sourceValues, vm)) {
    return kExitOk;
  }
  const data::SourceOptions sourceOptions = sourceValues.validated();
  const std::vector<std::string> outputs = outputsOf("coarsen", inputs, output, outputDir);
  const rewriter::Normalizer normalizer;
  size_t next = 0;
  return forEachInput("coarsen", inputs, [&](std::string& input) {
    const std::string& target = outputs[next++];
    const std::string source = readInputArgument(input);
    const rewriter::CoarsenedKernel coarsened =
        normalizer.coarsen(source, input, kernel, factor, vm.count("stride") != 0, sourceOptions);
    if (vm.count("json")) {
      const nlohmann::json out = {{"file", input},
                                  {"kernel", coarsened.kernel},
                                  {"factor", factor},
                                  {"stride", coarsened.stride},
                                  {"source", coarsened.source},
                                  {"host_rule", coarsened.hostRule()}};
      writeOutput(target, out.dump() + "\n");
    } else {
      std::cerr << input << ": " << coarsened.kernel << " coarsened by " << factor
                << "; host: " << coarsened.hostRule() << "\n";
      writeOutput(target, coarsened.source + "\n");
    }
  });
}

}  // namespace deeptune::cli
