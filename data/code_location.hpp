// Where a piece of code lives: the shared library or program file that holds an address.
#pragma once

#include <filesystem>

namespace deeptune::data {

/// The canonical path of the shared library or program holding `address` (a function of the
/// caller's), or "" when it cannot be told. For the main program it is /proc/self/exe's target
/// (dladdr names the main program by its argv[0], which may be relative or a name found on PATH).
std::filesystem::path fileHoldingCode(const void* address);

}  // namespace deeptune::data
