// DeepTuneModel's model file: the network's tensors to and from the file's weights (versions 3, 4),
// and version 2's LibTorch archive read back (internal/model_file_format.hpp has the format).
#include <algorithm>
#include <map>
#include <sstream>

#include "model/internal/model_file_format.hpp"
#include "model/internal/model_state.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {
namespace internal {
namespace {

/// The network's parameters and buffers by their module names ("lstm.weight_ih_l0", ...).
std::map<std::string, torch::Tensor> tensorsByName(DeepTuneNetImpl& net) {
  std::map<std::string, torch::Tensor> byName;
  for (const auto& item : net.named_parameters()) byName[item.key()] = item.value();
  for (const auto& item : net.named_buffers()) byName[item.key()] = item.value();
  return byName;
}

}  // namespace

std::vector<NamedTensor> networkTensors(DeepTuneNetImpl& net, const ModelInfo& info) {
  torch::NoGradGuard noGrad;
  const auto byName = tensorsByName(net);
  std::vector<NamedTensor> tensors = networkTensorLayout(networkSizesOf(info));
  for (NamedTensor& tensor : tensors) {
    const auto found = byName.find(tensor.name);
    if (found == byName.end()) throw ModelError("the network has no tensor '" + tensor.name + "'");
    const torch::Tensor flat = found->second.detach().to(torch::kFloat32).contiguous().view({-1});
    tensor.values.assign(flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
  }
  return tensors;
}

void loadNetworkTensors(DeepTuneNetImpl& net, const std::vector<NamedTensor>& tensors) {
  torch::NoGradGuard noGrad;
  const auto byName = tensorsByName(net);
  for (const NamedTensor& tensor : tensors) {
    const auto found = byName.find(tensor.name);
    if (found == byName.end() || found->second.sizes() != c10::IntArrayRef(tensor.shape)) {
      throw ModelError("tensor '" + tensor.name + "' does not fit the network");
    }
    const torch::Tensor values =
        torch::from_blob(const_cast<float*>(tensor.values.data()), tensor.shape, torch::kFloat32);
    found->second.copy_(values);
  }
}

}  // namespace internal

void DeepTuneModel::save(const std::string& path) const {
  ModelInfo info = impl_->info;
  info.networks = 1;
  info.boostedHeads = false;
  internal::writeModelFile(path, info, {{internal::networkTensors(*impl_->net, info), {}}});
}

void DeepTuneModel::saveEnsemble(const std::string& path,
                                 const std::vector<const DeepTuneModel*>& networks,
                                 const std::vector<std::optional<BoostedTreeHead>>& heads) {
  if (networks.empty() || (!heads.empty() && heads.size() != networks.size())) {
    throw ModelError("cannot write model file " + path + ": " + std::to_string(networks.size()) +
                     " networks and " + std::to_string(heads.size()) + " heads");
  }
  ModelInfo info = networks.front()->impl_->info;
  std::vector<internal::ModelMember> members;
  for (size_t n = 0; n < networks.size(); ++n) {
    if (networks[n]->impl_->info.vocabulary != info.vocabulary ||
        networks[n]->impl_->info.labels != info.labels) {
      throw ModelError("cannot write model file " + path + ": its networks' metadata differ");
    }
    members.push_back({internal::networkTensors(*networks[n]->impl_->net, info),
                       heads.empty() ? std::nullopt : heads[n]});
  }
  internal::writeModelFile(path, info, members);
}

DeepTuneModel DeepTuneModel::load(const std::string& path) {
  internal::ModelFile file = internal::readModelFile(path);
  if (!internal::holdsNetworks(file.info)) {
    throw ModelError(path + ": a " + file.info.method +
                     " predictor, not a DeepTune network (nothing to fine-tune or pretrain)");
  }
  DeepTuneModel model(file.info, 0);
  try {
    if (file.formatVersion == 2) {
      std::istringstream weightStream(file.torchArchive);
      torch::serialize::InputArchive archive;
      archive.load_from(weightStream);
      model.impl_->net->load(archive);
    } else {
      internal::loadNetworkTensors(*model.impl_->net, file.members.front().tensors);
    }
  } catch (const ModelError& e) {
    throw ModelError(path + ": weights do not fit the declared network: " + e.what());
  } catch (const c10::Error& e) {
    throw ModelError(path + ": weights do not fit the declared network: " +
                     std::string(e.what_without_backtrace()).substr(0, 200));
  }
  if (file.formatVersion == 2) {  // versions 3 and 4 are checked as they are read
    internal::requireFiniteWeights(internal::networkTensors(*model.impl_->net, file.info), path);
  }
  model.impl_->net->eval();
  return model;
}

ModelUpgrade upgradeModelFile(const std::string& input, const std::string& output) {
  const internal::ModelFile file = internal::readModelFile(input);
  ModelUpgrade upgrade;
  upgrade.fromVersion = file.formatVersion;
  const bool heads = std::any_of(file.members.begin(), file.members.end(),
                                 [](const internal::ModelMember& m) { return m.head.has_value(); });
  // A format-2 file's network is in its LibTorch archive: one network, no head.
  upgrade.toVersion = internal::formatVersionFor(
      file.info, internal::holdsNetworks(file.info) ? std::max<size_t>(1, file.members.size()) : 0,
      heads);
  // Formats 2 and 3 (another weight encoding, another checksum) are behind whatever they hold.
  if (upgrade.fromVersion == upgrade.toVersion) return upgrade;
  // Only a single network can be behind: what holds more (5, 6), or no network (7, 8), is
  // written in its oldest version from the start.
  DeepTuneModel network = DeepTuneModel::load(input);
  network.save(output);
  upgrade.written = true;
  return upgrade;
}

}  // namespace deeptune::model
