// The application's own header of this name: deeptune's installed headers must not pick it up.
#pragma once

namespace app {
/// Stands in for whatever the application calls a launch argument.
struct LaunchArg {
  int slot = 0;
};
}  // namespace app
