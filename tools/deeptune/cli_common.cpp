// Shared helpers of the deeptune CLI: option parsing, file input and atomic output.
#include "tools/deeptune/cli_common.hpp"

#include <iostream>

#include "data/file_io.hpp"

namespace deeptune::cli {

bool parseOptions(const Args& args, const std::string& usage, po::options_description& options,
                  const po::positional_options_description& positional, po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << usage << "\n\n" << options << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

std::string commandLine(const std::string& command, const Args& args) {
  std::string line = "deeptune " + command;
  for (const std::string& argument : args) line += " " + argument;
  return line;
}

std::string readFile(const std::string& path) {
  return data::readFileBytes(path, data::kMaxSourceBytes);
}

void writeOutput(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") {
    std::cout << content << std::flush;  // write errors are caught at exit (main.cpp)
    return;
  }
  data::writeFileAtomically(path, content);
}

}  // namespace deeptune::cli
