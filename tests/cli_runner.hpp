// Runs the built deeptune binary for end-to-end tests and captures stdout, stderr and exit code.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_paths.hpp"

namespace deeptune::test {

struct CliResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};

inline std::string readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Runs `shellPrefix deeptune <arguments>` through the shell (arguments are shell words, quote as
/// needed).
inline CliResult runShellCli(const std::string& shellPrefix, const std::string& arguments) {
  static int counter = 0;
  const std::string stem =
      "/tmp/deeptune-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  const std::string command =
      shellPrefix + "'" + cliPath() + "' " + arguments + " >" + stem + ".out 2>" + stem + ".err";
  const int status = std::system(command.c_str());
  CliResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = readWholeFile(stem + ".out");
  result.err = readWholeFile(stem + ".err");
  std::remove((stem + ".out").c_str());
  std::remove((stem + ".err").c_str());
  return result;
}

/// Runs `deeptune <arguments>`, with `environment` ("NAME=value ...", shell words) added to its
/// environment.
inline CliResult runCli(const std::string& arguments, const std::string& environment = "") {
  return runShellCli(environment.empty() ? "" : "env " + environment + " ", arguments);
}

/// Runs `deeptune <arguments>` with its data segment limited to 1 GiB (`ulimit -d`): input that
/// made it grow past that fails the run instead of passing unnoticed. In the sanitizer build
/// the limit is left out (AddressSanitizer maps terabytes of shadow memory at start, which the
/// limit refuses): the same checks run there without the bound, and the normal build checks it.
inline CliResult runCliWithin1GiB(const std::string& arguments) {
#ifdef DEEPTUNE_SANITIZED
  return runCli(arguments);
#else
  return runShellCli("ulimit -d 1048576 && exec ", arguments);
#endif
}

}  // namespace deeptune::test
