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
      "Reads MODEL (format version 2, whose weights are a LibTorch archive, 3 or 4) and writes\n"
      "the same network and metadata to OUT in format version 4, which prediction reads without\n"
      "LibTorch (version 5, several networks or boosted-tree heads, is already current). OUT must "
      "not be MODEL itself (write a new file; rename it over MODEL if\n"
      "wanted).";
  po::options_description options("options");
  std::string input;
  std::string output;
  options.add_options()("model", po::value(&input)->required(), "(positional) model file")(
      "output,o", po::value(&output)->required(), "where to write the version-4 model");
  po::positional_options_description positional;
  positional.add("model", 1);
  po::variables_map vm;
  if (!parseOptions(args, usage, options, positional, vm)) return kExitOk;
  data::checkOutputNotInput(output, {input}, data::OutputKind::kFile);
  model::DeepTuneModel network = model::DeepTuneModel::load(input);
  if (network.info().networks > 1 || network.info().boostedHeads) {
    throw UsageError("upgrade-model: " + input +
                     " is format version 5 (several networks or boosted-tree heads), already "
                     "current; upgrade-model converts single networks of versions 2 to 4");
  }
  network.save(output);
  std::cout << "wrote " << output << "\n";
  return kExitOk;
}

}  // namespace deeptune::cli
