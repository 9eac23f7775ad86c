// Shared helpers of the deeptune CLI: option parsing, exit codes, file input and atomic output.
#pragma once

#include <boost/program_options.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/source_options.hpp"

namespace deeptune::cli {

namespace po = boost::program_options;
using Args = std::vector<std::string>;

/// Exit codes of every subcommand (documented in `deeptune --help`).
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;   ///< runtime failure
constexpr int kExitBadInput = 2;  ///< bad input or usage

/// Bad command line or unreadable input named by the user; the CLI prints it and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses `args` (without the subcommand name). Adds `--help`. Returns false when help was
/// printed to stdout (the caller then returns kExitOk). Throws po::error on bad options.
bool parseOptions(const Args& args, const std::string& usage, po::options_description& options,
                  const po::positional_options_description& positional, po::variables_map& vm);

/// Whether `args` ask for `--task TASK` (or `--task=TASK`): the commands whose coarsening task
/// has its own options hand such arguments to it before parsing.
bool asksForTask(const Args& args, const std::string& task);

/// The host's build options of a kernel source as given on the command line.
struct SourceOptionValues {
  std::vector<std::string> defines;
  std::vector<std::string> includeDirs;
  /// Validated; throws UsageError naming a bad value.
  data::SourceOptions validated() const;
};

/// Adds `-D NAME[=VALUE]` and `-I DIR` (each repeatable) to `options`, stored in `values`.
void addSourceOptions(po::options_description& options, SourceOptionValues& values);

/// parseOptions for a command that reads kernel sources: adds -D and -I (addSourceOptions, into
/// `sourceValues`) to `options`, and the positional arguments go to the option `files` (at most
/// `count` of them; -1: any number).
bool parseWithSourceOptions(const Args& args, const std::string& usage,
                            po::options_description& options, SourceOptionValues& sourceValues,
                            po::variables_map& vm, const char* files = "file", int count = -1);

/// Adds `-o OUT` (default "-": stdout) and `--output-dir DIR` (each input's output in DIR under
/// its file name) to `options`: the outputs of a command run over several files (see outputsOf).
void addOutputOptions(po::options_description& options, std::string& output,
                      std::string& outputDir);

/// Tells on stderr which names `file` uses but declares nowhere (nothing if none): one line.
void printUndeclaredNote(const std::string& file, const std::vector<std::string>& undeclared);

/// "deeptune COMMAND ARGS..." as typed (for provenance in model files and reports).
std::string commandLine(const std::string& command, const Args& args);

/// Reads a whole regular file of at most data::kMaxSourceBytes ("-": standard input, as much);
/// throws data::DataError naming the file if it cannot be read.
std::string readFile(const std::string& path);

/// readFile(path), refused unless it is text (data::requireTextFile): a kernel source to run.
std::string readTextFile(const std::string& path);

/// What messages call a FILE argument of "-": standard input.
constexpr const char* kStandardInputName = "<stdin>";

/// readFile(path) for a command's FILE argument; for "-" it also sets `path` to
/// kStandardInputName, so that the name the command passes on to messages says where the text
/// came from.
std::string readInputArgument(std::string& path);

/// Writes `content` to `path` with data::writeFileAtomically (never replaces a device, FIFO or
/// link); "-" writes to stdout. Check `path` first with data::checkOutputNotInput (it refuses
/// ""). Throws data::OutputError on I/O failure.
void writeOutput(const std::string& path, const std::string& content);

}  // namespace deeptune::cli
