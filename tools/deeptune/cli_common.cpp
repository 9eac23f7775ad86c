// Shared helpers of the deeptune CLI: option parsing, file input and atomic output.
#include "tools/deeptune/cli_common.hpp"

#include <algorithm>
#include <iostream>

#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "data/text_check.hpp"

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

bool parseWithSourceOptions(const Args& args, const std::string& usage,
                            po::options_description& options, SourceOptionValues& sourceValues,
                            po::variables_map& vm, const char* files, int count) {
  addSourceOptions(options, sourceValues);
  po::positional_options_description positional;
  positional.add(files, count);
  return parseOptions(args, usage, options, positional, vm);
}

void addOutputOptions(po::options_description& options, std::string& output,
                      std::string& outputDir) {
  options.add_options()("output,o", po::value(&output)->default_value("-"),
                        "output file ('-' = stdout)")(
      "output-dir", po::value(&outputDir),
      "several files: write each to DIR/<its file name> (default: all to stdout)");
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

std::string readTextFile(const std::string& path) {
  std::string source = readFile(path);
  data::requireTextFile(source, path);
  return source;
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
