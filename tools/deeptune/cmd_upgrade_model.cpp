// deeptune upgrade-model: rewrites a model file of an older format version in the one this
// deeptune writes for it, or says that it is current.
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
      "Reads MODEL, a model file of any format version this deeptune reads (2 to 8), and writes\n"
      "it to OUT in the version this deeptune writes for such a model when MODEL is older: one\n"
      "network is written as version 4, or 6 when its labels name measured devices (formats 2\n"
      "and 3, whose weights or checksum are older, become that). Every other file is written\n"
      "in its version from the start: several networks or heads 5 (6 naming devices), a\n"
      "pretrained language model 7, a predictor without a network 7 (8 with a calibration or\n"
      "training programs); for those, and for a current single network, it says so and writes\n"
      "nothing. OUT must not be MODEL itself (write a new file; rename it over MODEL if\n"
      "wanted).";
  po::options_description options("options");
  std::string input;
  std::string output;
  options.add_options()("model", po::value(&input)->required(), "(positional) model file")(
      "output,o", po::value(&output)->required(),
      "where to write the upgraded model (nothing is written when MODEL is current)");
  po::positional_options_description positional;
  positional.add("model", 1);
  po::variables_map vm;
  if (!parseOptions(args, usage, options, positional, vm)) return kExitOk;
  data::checkOutputNotInput(output, {input}, data::OutputKind::kFile);
  const model::ModelUpgrade upgrade = model::upgradeModelFile(input, output);
  if (upgrade.written) {
    std::cout << "wrote " << output << " (format version " << upgrade.toVersion << "; " << input
              << " was version " << upgrade.fromVersion << ")\n";
  } else {
    std::cout << input << " is format version " << upgrade.fromVersion
              << ", the version this deeptune writes for it: already current, nothing written\n";
  }
  return kExitOk;
}

}  // namespace deeptune::cli
