// Shared helpers of the deeptune CLI: option parsing, file input and atomic output.
#include "tools/deeptune/cli_common.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "data/data_error.hpp"
#include "data/file_io.hpp"

namespace deeptune::cli {

bool asksForTask(const Args& args, const std::string& task) {
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--task" && i + 1 < args.size() && args[i + 1] == task) ||
        args[i] == "--task=" + task) {
      return true;
    }
  }
  return false;
}

bool parseOptions(const Args& args, const std::string& usage, po::options_description& options,
                  const po::positional_options_description& positional, po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
  if (vm.count("help")) {
    // Positional arguments are in the usage line, not among the options (as `--file arg`).
    po::options_description shown("options");
    for (const auto& option : options.options()) {
      bool isPositional = false;
      for (unsigned i = 0; i < std::min(positional.max_total_count(), 8u); ++i) {
        isPositional = isPositional || positional.name_for_position(i) == option->long_name();
      }
      if (!isPositional) shown.add(option);
    }
    std::cout << usage << "\n\n" << shown << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

data::SourceOptions SourceOptionValues::validated() const {
  try {
    return data::makeSourceOptions(defines, includeDirs);
  } catch (const data::DataError& e) {
    throw UsageError(e.what());
  }
}

void addSourceOptions(po::options_description& options, SourceOptionValues& values) {
  options.add_options()(
      "define,D", po::value(&values.defines)->composing(),
      "NAME or NAME=VALUE: a macro the host program defines when it builds the kernel")(
      "include,I", po::value(&values.includeDirs)->composing(),
      "folder searched for #include (after the kernel file's own folder)");
}

std::string openClBuildFlags(const data::SourceOptions& options, const std::string& sourceFile) {
  namespace fs = std::filesystem;
  data::SourceOptions absolute;
  absolute.defines = options.defines;
  const fs::path folder = fs::path(sourceFile).parent_path();
  const std::string own = fs::absolute(folder.empty() ? "." : folder).lexically_normal().string();
  // A folder with a space cannot be passed (OpenCL splits the options at spaces); -I ones are
  // refused when given, the file's own folder is left out.
  if (own.find_first_of(" \t") == std::string::npos) absolute.includeDirs.push_back(own);
  for (const std::string& dir : options.includeDirs) {
    absolute.includeDirs.push_back(fs::absolute(dir).lexically_normal().string());
  }
  return absolute.buildFlags();
}

void printUndeclaredNote(const std::string& file, const std::vector<std::string>& undeclared) {
  if (undeclared.empty()) return;
  std::string list;
  for (const std::string& name : undeclared) list += (list.empty() ? "" : ", ") + name;
  std::cerr << "note: " << file << ": " << undeclared.size()
            << (undeclared.size() == 1 ? " name" : " names")
            << " declared nowhere, left as written: " << list
            << " (the host's -D NAME=VALUE or -I DIR would define them)\n";
}

std::string commandLine(const std::string& command, const Args& args) {
  std::string line = "deeptune " + command;
  for (const std::string& argument : args) line += " " + argument;
  return line;
}

std::string readFile(const std::string& path) {
  if (path == "-") return data::readStandardInput(data::kMaxSourceBytes);
  return data::readFileBytes(path, data::kMaxSourceBytes);
}

std::string readInputArgument(std::string& path) {
  std::string text = readFile(path);
  if (path == "-") path = kStandardInputName;
  return text;
}

void writeOutput(const std::string& path, const std::string& content) {
  if (path == "-") {
    std::cout << content << std::flush;  // write errors are caught at exit (main.cpp)
    return;
  }
  data::writeFileAtomically(path, content);
}

}  // namespace deeptune::cli
