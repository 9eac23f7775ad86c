// DeviceModel: the model-runner interface's out-of-line destructor and defaults.
#include "api/device_model.hpp"

namespace deeptune::api {

DeviceModel::~DeviceModel() = default;

uint64_t DeviceModel::normalizedHash(const std::string&, const std::string&, const std::string&) {
  return 0;
}

}  // namespace deeptune::api
