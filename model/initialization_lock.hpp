// The lock every network's seeding and initialization holds: LibTorch's default generator is
// process-wide (the DeepTune network and the Magni baseline's both draw from it).
#pragma once

#include <mutex>

namespace deeptune::model {

std::mutex& torchInitializationMutex();

}  // namespace deeptune::model
