// deeptune upgrade-model: rewrites a model file of an older format version in the current one.
#include <iostream>
#include <string>

#include "data/file_io.hpp"
#include "model/deeptune_model.hpp"
#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {

int runUpgradeModel(const Args& args) {
  const std::string usage =
      "usage: deeptune upgrade-model MODEL -o OUT\n"
      "\n"
      "Reads MODEL, one network of any format version this deeptune reads (2, whose weights are\n"
      "a LibTorch archive, to 6), and writes it to OUT in the format this deeptune writes for\n"
      "it: version 4, or 6 for a model whose labels name measured devices. A predictor without\n"
      "a network (version 7) is written again as it is; a file of several networks or heads\n"
      "(version 5, or 6 with devices) is already current and refused. OUT must not be MODEL\n"
      "itself (write a new file; rename it over MODEL if wanted).";
  po::options_description options("options");
  std::string input;
  std::string output;
  options.add_options()("model", po::value(&input)->required(), "(positional) model file")(
      "output,o", po::value(&output)->required(),
      "where to write the model (format version 4, or 6)");
  po::positional_options_description positional;
  positional.add("model", 1);
  po::variables_map vm;
  if (!parseOptions(args, usage, options, positional, vm)) return kExitOk;
  data::checkOutputNotInput(output, {input}, data::OutputKind::kFile);
  model::upgradeModelFile(input, output);
  std::cout << "wrote " << output << "\n";
  return kExitOk;
}

}  // namespace deeptune::cli
