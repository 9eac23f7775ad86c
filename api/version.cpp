// The libraries' version at run time (deeptune/version.hpp).
#include "deeptune/version.hpp"

namespace deeptune {

const char* version() noexcept { return DEEPTUNE_VERSION_STRING; }

}  // namespace deeptune
