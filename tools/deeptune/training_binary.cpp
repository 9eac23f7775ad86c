// The training commands' executable (deeptune-train, linked with LibTorch), run in deeptune's
// place.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {

bool isTrainingCommand(const std::string& command) {
  return command == "train" || command == "evaluate" || command == "pretrain" ||
         command == "upgrade-model";
}

std::string execTrainingBinary(char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "cannot find this executable (/proc/self/exe): " + ec.message();
  const std::string sibling = (self.parent_path() / "deeptune-train").string();
  if (!std::filesystem::is_regular_file(sibling, ec)) {
    return std::string(argv[1]) + " needs deeptune-train (the commands linked with LibTorch) " +
           "beside this executable: not found at " + sibling;
  }
  argv[0] = const_cast<char*>(sibling.c_str());
  ::execv(sibling.c_str(), argv);
  return "cannot run " + sibling + ": " + std::strerror(errno);
}

}  // namespace deeptune::cli
