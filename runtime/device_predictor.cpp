// DevicePredictor's out-of-line destructor (anchors its vtable in the runtime library).
#include "runtime/device_predictor.hpp"

namespace deeptune::runtime {

DevicePredictor::~DevicePredictor() = default;

}  // namespace deeptune::runtime
