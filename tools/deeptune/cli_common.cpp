// Shared helpers of the deeptune CLI: option parsing, file input and atomic output.
#include "tools/deeptune/cli_common.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

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
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw UsageError(path + ": is a directory, expected a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UsageError(path + ": cannot open file: " + std::strerror(errno));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    throw UsageError(path + ": read failed");
  }
  return buffer.str();
}

void writeOutput(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") {
    std::cout << content << std::flush;
    return;
  }
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw UsageError(path + ": cannot write: " + std::strerror(errno));
    }
    out << content;
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw std::runtime_error(path + ": write failed");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error(path + ": cannot replace file: " + reason);
  }
}

}  // namespace deeptune::cli
