// What exit code an error means, and a command run over many input files, one result each.
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace deeptune::cli {

/// The exit code main() gives an error: 2 for bad input or usage (the user's file, option or
/// data), 1 for anything else (a runtime failure).
int exitCodeOf(const std::exception& error);

/// Runs `each` on every input in order. An input whose `each` throws a bad-input error (exit
/// code 2) gets its one error line on stderr ("deeptune: MESSAGE") and the others still run;
/// any other error stops the command. Returns 0, or 2 after a summary line ("deeptune: COMMAND:
/// N of M inputs failed") when any input failed. Each input is passed as `each` may rename it
/// ("-" becomes "<stdin>" once read).
int forEachInput(const std::string& command, const std::vector<std::string>& inputs,
                 const std::function<void(std::string&)>& each);

/// Where a command that writes one output per input (rewrite, coarsen) writes each: with one
/// input, `output` ("-": standard output); with several, `outputDir`/<the input's file name>, or
/// standard output when neither is given. Checked before any work: several inputs with `-o FILE`
/// are refused (use --output-dir), as are an output folder that is something else (a file, a
/// dangling link), two inputs of the same file name, and an output that is one of the inputs
/// (UsageError / DataError); a missing output folder is then made, with its parents. With
/// `stemsOnly` (one output per kernel) an output folder's entries are `outputDir`/<the input's
/// file name without its extension>, for the caller to complete and check.
std::vector<std::string> outputsOf(const std::string& command,
                                   const std::vector<std::string>& inputs,
                                   const std::string& output, const std::string& outputDir,
                                   bool stemsOnly = false);

}  // namespace deeptune::cli
