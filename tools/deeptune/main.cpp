// deeptune CLI entry point: dispatches subcommands and turns library errors into exit codes.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <vector>

#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/each_input.hpp"

namespace {

using deeptune::cli::Args;

const char* kUsage =
    "usage: deeptune <command> [options]   (deeptune <command> --help for its options)\n"
    "\n"
    "commands:\n"
    "  rewrite    normalize OpenCL source (whole file, or one kernel with --kernel)\n"
    "  coarsen    thread-coarsen a kernel by a factor (and print the host's launch rule)\n"
    "  tokenize   encode a file into vocabulary ids\n"
    "  vocab      derive a vocabulary from files or a CSV column\n"
    "  train      train a predictor (source-boosted, deeptune, ...) on a labelled CSV\n"
    "  pretrain   train DeepTune's language model on unlabelled kernels (for train --from)\n"
    "  evaluate   cross-validate methods (what ships, DeepTune, baselines); write a report\n"
    "  predict    CPU or GPU for a kernel launch (rewrite, tokenize, model)\n"
    "  devices    list the OpenCL devices\n"
    "  measure    time kernels on every OpenCL device (isolated, checked) and write a CSV\n"
    "  validate   predict a kernel's device, then run it on every device to check\n"
    "  upgrade-model  rewrite an older model file in the current format\n"
    "  help CMD   the options of CMD (as deeptune CMD --help; help CMD --task coarsening for\n"
    "             that task's); --version: versions, models\n"
    "\n"
    "A FILE argument given as - is read from standard input. An output (-o, --report) must not\n"
    "be one of the command's input files (exit 2, nothing written) nor empty; -o - is standard\n"
    "output for the commands that write text (rewrite, coarsen, vocab, measure).\n"
    "\n"
    "environment:\n"
    "  DEEPTUNE_MODELS      folder of the bundled models (default: share/deeptune/models\n"
    "                       beside the installed library)\n"
    "  DEEPTUNE_DATA        the paper's data folder (default: ../shared/data/deeptune)\n"
    "  DEEPTUNE_CACHE_DIR   where the rewriter builds its precompiled header when the one\n"
    "                       installed in share/deeptune/pch is missing or stale (default:\n"
    "                       $XDG_CACHE_HOME/deeptune, else $HOME/.cache/deeptune)\n"
    "  DEEPTUNE_EXECUTABLE  the deeptune an out-of-process predictor starts (default: beside\n"
    "                       the program, then the installed one, then PATH)\n"
    "  TMPDIR               where measure writes its workers' request files\n"
    "\n"
    "exit codes: 0 ok, 1 runtime failure, 2 bad input or usage";

int dispatch(const std::string& command, const Args& args) {
  static const std::map<std::string, int (*)(const Args&)> commands = {
#ifdef DEEPTUNE_TRAINING_BINARY  // deeptune-train: only what needs LibTorch
      {"train", deeptune::cli::runTrain},
      {"evaluate", deeptune::cli::runEvaluate},
      {"pretrain", deeptune::cli::runPretrain},
      {"upgrade-model", deeptune::cli::runUpgradeModel},
#else
#ifdef DEEPTUNE_WITH_REWRITER
      {"rewrite", deeptune::cli::runRewrite},
      {"coarsen", deeptune::cli::runCoarsen},
      {"predict", deeptune::cli::runPredict},
      {"validate", deeptune::cli::runValidate},
      {"__predict-server", deeptune::cli::runPredictServer},
#endif
#ifndef DEEPTUNE_LEAN
      {"tokenize", deeptune::cli::runTokenize},
      {"vocab", deeptune::cli::runVocab},
#endif
      {"devices", deeptune::cli::runDevices},
      {"measure", deeptune::cli::runMeasure},
      {"__measure-worker", deeptune::cli::runMeasureWorker},
#endif
  };
  auto found = commands.find(command);
  if (found == commands.end()) {
    throw deeptune::cli::UsageError("unknown command '" + command + "' (see deeptune --help)");
  }
  return found->second(args);
}

int fail(int code, const std::string& message) {
  std::cerr << "deeptune: " << message << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace deeptune;
  if (argc < 2) {
    std::cerr << kUsage << "\n";
    return cli::kExitBadInput;
  }
  std::string command = argv[1];
  static char helpFlag[] = "--help";
  std::vector<char*> helpArgv;
  if (command == "help" && argc > 2) {   // deeptune help CMD [ARGS] = deeptune CMD [ARGS] --help
    helpArgv.assign(argv, argv + argc);  // (ARGS: e.g. --task coarsening, whose help differs)
    helpArgv.erase(helpArgv.begin() + 1);
    helpArgv.push_back(helpFlag);
    helpArgv.push_back(nullptr);
    argv = helpArgv.data();
    argc = static_cast<int>(helpArgv.size()) - 1;
    command = argv[1];
  }
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage << "\n";
    return cli::kExitOk;
  }
  if (command == "--version") {
    cli::printVersion();
    return cli::kExitOk;
  }
#if !defined(DEEPTUNE_LEAN) && !defined(DEEPTUNE_TRAINING_BINARY)
  if (cli::isTrainingCommand(command)) {
    return fail(cli::kExitFailure, cli::execTrainingBinary(argv));  // returns only on failure
  }
#endif
  const Args args(argv + 2, argv + argc);
  try {
    const int code = dispatch(command, args);
    // Output a command printed but the system could not take (a full disk behind `>`, a closed
    // pipe) is a failure, not a success.
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
      return fail(cli::kExitFailure,
                  "standard output: write failed: " + std::string(std::strerror(errno)));
    }
    return code;
  } catch (const cli::po::error& e) {
    return fail(cli::kExitBadInput, command + ": " + e.what());
  } catch (const std::exception& e) {  // bad input (exit 2) or a runtime failure (exit 1)
    return fail(cli::exitCodeOf(e), e.what());
  }
}
