// The model file without LibTorch: magic line and checksum, JSON header, the weights' layout.
#include "model/internal/model_file_format.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "data/checksum.hpp"
#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "model/model_error.hpp"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the weights are stored little-endian");

namespace deeptune::model::internal {
namespace {

constexpr const char* kMagic = "DEEPTUNE-MODEL";
constexpr const char* kWeightEncoding = "float32-le";

/// The inputs a task's model takes, declared once by name, type and shape.
nlohmann::json declaredInputs(const ModelInfo& info) {
  nlohmann::json inputs = nlohmann::json::array();
  nlohmann::json tokens = {
      {"name", "tokens"}, {"type", "int64"}, {"shape", {-1}}, {"max_length", info.maxLength}};
  if (info.pooling != "last") tokens["pooling"] = info.pooling;  // older files have none
  inputs.push_back(tokens);
  for (const auto& name : info.auxInputs) {
    nlohmann::json input = {{"name", name}, {"type", "float32"}, {"shape", {1}}};
    if (info.auxScale != "raw") input["scale"] = info.auxScale;  // older files have none
    inputs.push_back(input);
  }
  return inputs;
}

std::vector<std::string> expectedAuxInputs(const std::string& task) {
  if (task == "devmap") return {"transfer", "wgsize"};
  if (task == "coarsening") return {};
  return {"?"};
}

/// The first line: magic, format version and the checksum of everything after the line. Version
/// 4 names XXH3-64 (what `xxhsum -H3` prints); 2 and 3 wrote a non-standard checksum under the
/// name fnv1a64 (data::legacy64), checked as they wrote it.
std::string magicLine(int version, const std::string& rest) {
  const std::string checksum = version >= 4 ? " xxh3-64=" + data::hex64(data::xxh3_64(rest))
                                            : " fnv1a64=" + data::hex64(data::legacy64(rest));
  return std::string(kMagic) + " " + std::to_string(version) + checksum + "\n";
}

/// Formats 2 and 3 labelled their data fingerprints "fnv1a64:" but computed them with
/// data::legacy64: the label they get when read, so that no file says FNV-1a where it is not.
std::string relabelLegacy(std::string text) {
  const std::string wrong = "fnv1a64:";
  for (size_t at = text.find(wrong); at != std::string::npos; at = text.find(wrong, at)) {
    text.replace(at, wrong.size(), "legacy64:");
    at += 9;
  }
  return text;
}

/// The weights' layout as the header states it: every tensor's name and shape, in order.
nlohmann::json tensorLayoutJson(const std::vector<NamedTensor>& tensors) {
  nlohmann::json layout = nlohmann::json::array();
  for (const NamedTensor& tensor : tensors) {
    layout.push_back({{"name", tensor.name}, {"shape", tensor.shape}});
  }
  return layout;
}

size_t elementCount(const NamedTensor& tensor) {
  size_t count = 1;
  for (int64_t extent : tensor.shape) count *= static_cast<size_t>(extent);
  return count;
}

/// Checks what the checksum cannot: that the metadata makes sense for a network this program
/// builds. Throws ModelError (without the path) on the first problem.
void validateInfo(const ModelInfo& info) {
  if (info.task != "devmap" && info.task != "coarsening") {
    throw ModelError("unknown task '" + info.task + "'");
  }
  if (info.task == "devmap" && info.labels != std::vector<std::string>{"CPU", "GPU"}) {
    throw ModelError("a devmap model's labels must be CPU, GPU");
  }
  if (info.task == "coarsening" &&
      info.labels != std::vector<std::string>{"1", "2", "4", "8", "16", "32"}) {
    throw ModelError("a coarsening model's labels must be the factors 1, 2, 4, 8, 16, 32");
  }
  if (info.labels.size() < 2 || info.labels.size() > 64 ||
      std::set<std::string>(info.labels.begin(), info.labels.end()).size() != info.labels.size()) {
    throw ModelError("labels must be 2 to 64 distinct names");
  }
  if (info.vocabulary.empty() || info.vocabulary.size() > 65536) {
    throw ModelError("vocabulary of " + std::to_string(info.vocabulary.size()) +
                     " tokens (1 to 65536 expected)");
  }
  std::set<std::string> tokens;
  for (const std::string& token : info.vocabulary) {
    if (token.empty() || !tokens.insert(token).second) {
      throw ModelError("vocabulary tokens must be distinct and non-empty");
    }
  }
  if (info.maxLength < 1 || info.maxLength > (1 << 20)) {
    throw ModelError("max length " + std::to_string(info.maxLength) + " outside 1..1048576");
  }
  if (info.trainingRows < 0) throw ModelError("negative training row count");
  if (info.auxScale != "raw" && info.auxScale != "log2") {
    throw ModelError("unknown scale '" + info.auxScale + "' of the auxiliary inputs (raw, log2)");
  }
  if (info.pooling != "last" && info.pooling != "mean") {
    throw ModelError("unknown pooling '" + info.pooling + "' of the token states (last, mean)");
  }
}

/// Says what is wrong with a file whose magic line does not match its contents: another format
/// version, cut short, grown, or changed. Always throws.
[[noreturn]] void diagnoseMismatch(const std::string& path, const std::string& magic, int version,
                                   const std::string& rest, const nlohmann::json& header,
                                   size_t headerEnd) {
  if (version == 0) {
    throw ModelError(path + ": model format '" + magic.substr(std::strlen(kMagic)) +
                     "', this deeptune reads versions 2 to " + std::to_string(kModelFormatVersion));
  }
  if (headerEnd == std::string::npos) throw ModelError(path + ": truncated model file (header)");
  const nlohmann::json* size = nullptr;
  if (header.is_object() && header.contains("weights") && header["weights"].is_object() &&
      header["weights"].contains("bytes") && header["weights"]["bytes"].is_number_unsigned()) {
    size = &header["weights"]["bytes"];
  }
  const size_t declared = size != nullptr ? size->get<size_t>() : 0;
  const size_t weightBytes = rest.size() - headerEnd - 1;
  if (declared > 0 && weightBytes < declared) {
    throw ModelError(path + ": truncated model file (weights: " + std::to_string(weightBytes) +
                     " of " + std::to_string(declared) + " bytes)");
  }
  if (declared > 0 && weightBytes > declared) {
    throw ModelError(path + ": " + std::to_string(weightBytes - declared) +
                     " bytes after the end of the model (appended to the file?)");
  }
  throw ModelError(path + ": corrupt model file (checksum mismatch)");
}

/// The metadata of a parsed header; throws ModelError (with the path) or a JSON exception.
ModelInfo infoOf(const nlohmann::json& header, const std::string& path) {
  ModelInfo info;
  info.task = header.at("task").get<std::string>();
  info.vocabulary = header.at("vocabulary").get<std::vector<std::string>>();
  info.labels = header.at("labels").get<std::vector<std::string>>();
  const std::string padding = header.at("padding").get<std::string>();
  if (padding != "paper" && padding != "packed") {
    throw ModelError(path + ": unknown padding mode '" + padding + "'");
  }
  info.paperPadding = padding == "paper";
  const auto& inputs = header.at("inputs");
  info.maxLength = inputs.at(0).at("max_length").get<int>();
  info.pooling = inputs.at(0).value("pooling", std::string("last"));
  for (size_t i = 1; i < inputs.size(); ++i) {
    info.auxInputs.push_back(inputs.at(i).at("name").get<std::string>());
    info.auxScale = inputs.at(i).value("scale", std::string("raw"));
  }
  info.dataFingerprint = header.at("training").at("data_fingerprint").get<std::string>();
  info.trainingRows = header.at("training").at("rows").get<int>();
  info.trainingCommand = header.at("training").at("command").get<std::string>();
  info.transferredFrom = header.at("training").value("transferred_from", std::string());
  if (header.at("format_version").get<int>() < 4) {
    info.dataFingerprint = relabelLegacy(info.dataFingerprint);
    info.transferredFrom = relabelLegacy(info.transferredFrom);
  }
  if (header.at("inputs") != declaredInputs(info) ||
      info.auxInputs != expectedAuxInputs(info.task)) {
    throw ModelError(path + ": model inputs " + header.at("inputs").dump() +
                     " do not match task '" + info.task + "'");
  }
  try {
    validateInfo(info);
  } catch (const ModelError& e) {
    throw ModelError(path + ": " + e.what());
  }
  return info;
}

/// Version 3's weights: exactly the network's tensors, in the layout's order, as the header says.
std::vector<NamedTensor> tensorsOf(const nlohmann::json& header, const std::string& weightBytes,
                                   const ModelInfo& info, const std::string& path) {
  const NetworkSizes sizes = networkSizesOf(info);
  const nlohmann::json network = {
      {"embedding", sizes.embedding}, {"lstm", sizes.lstm}, {"dense", sizes.dense}};
  if (header.at("network") != network) {
    throw ModelError(path + ": network sizes " + header.at("network").dump() +
                     ", this deeptune builds " + network.dump());
  }
  const auto& weights = header.at("weights");
  if (weights.at("encoding") != kWeightEncoding) {
    throw ModelError(path + ": weight encoding " + weights.at("encoding").dump() + ", expected \"" +
                     kWeightEncoding + "\"");
  }
  std::vector<NamedTensor> tensors = networkTensorLayout(sizes);
  if (weights.at("tensors") != tensorLayoutJson(tensors)) {
    throw ModelError(path + ": the weights' tensors do not fit the declared network");
  }
  size_t offset = 0;
  for (NamedTensor& tensor : tensors) {
    const size_t count = elementCount(tensor);
    if (weightBytes.size() - offset < count * sizeof(float)) {
      throw ModelError(path + ": the weights' tensors do not fit the declared network");
    }
    tensor.values.resize(count);
    std::memcpy(tensor.values.data(), weightBytes.data() + offset, count * sizeof(float));
    offset += count * sizeof(float);
  }
  if (offset != weightBytes.size()) {
    throw ModelError(path + ": the weights' tensors do not fit the declared network");
  }
  requireFiniteWeights(tensors, path);
  return tensors;
}

}  // namespace

ModelFile readModelFile(const std::string& path) {
  std::string bytes;
  try {
    bytes = data::readFileBytes(path, data::kMaxModelFileBytes);
  } catch (const data::DataError& e) {
    throw ModelError(e.what());
  }
  const size_t magicEnd = bytes.find('\n');
  const std::string magic = bytes.substr(0, std::min(magicEnd, size_t{80}));
  if (magic.rfind(kMagic, 0) != 0) {
    throw ModelError(path + ": not a deeptune model file (no DEEPTUNE-MODEL header)");
  }
  if (magicEnd == std::string::npos) throw ModelError(path + ": truncated model file (header)");
  if (magic == kMagic) {
    throw ModelError(path + ": model format version 1 (no checksum over its header); retrain it " +
                     "with this deeptune, which reads version " +
                     std::to_string(kModelFormatVersion));
  }
  int version = 0;  // "DEEPTUNE-MODEL <version> <checksum name>=<hex>", version 2 to 4
  const size_t versionStart = std::strlen(kMagic) + 1;
  if (magic.size() > versionStart + 1 && magic[versionStart - 1] == ' ' &&
      magic[versionStart] >= '2' && magic[versionStart] <= '0' + kModelFormatVersion &&
      magic[versionStart + 1] == ' ') {
    version = magic[versionStart] - '0';
  }
  const std::string rest = bytes.substr(magicEnd + 1);
  const size_t headerEnd = rest.find('\n');
  nlohmann::json header;
  if (headerEnd != std::string::npos) {
    header = nlohmann::json::parse(rest.substr(0, headerEnd), nullptr, /*allow_exceptions=*/false);
  }
  const std::string expected = magicLine(version, rest);
  if (version == 0 || magic != expected.substr(0, expected.size() - 1)) {
    diagnoseMismatch(path, magic, version, rest, header, headerEnd);
  }
  if (header.is_discarded()) throw ModelError(path + ": corrupt model header (not JSON)");
  ModelFile file;
  file.formatVersion = version;
  try {
    if (header.at("format_version").get<int>() != version) {
      throw ModelError(path + ": model format version " + header.at("format_version").dump() +
                       " in a version " + std::to_string(version) + " file");
    }
    file.info = infoOf(header, path);
    std::string weightBytes = rest.substr(headerEnd + 1);
    if (weightBytes.size() != header.at("weights").at("bytes").get<size_t>()) {
      throw ModelError(path + ": weights of " + std::to_string(weightBytes.size()) +
                       " bytes, the header declares " + header.at("weights").at("bytes").dump());
    }
    if (version == 2) {
      file.torchArchive = std::move(weightBytes);
    } else {
      file.tensors = tensorsOf(header, weightBytes, file.info, path);
    }
  } catch (const nlohmann::json::exception& e) {
    throw ModelError(path + ": model header lacks a field: " + e.what());
  }
  return file;
}

void requireFiniteWeights(const std::vector<NamedTensor>& tensors, const std::string& path) {
  for (const NamedTensor& tensor : tensors) {
    for (size_t i = 0; i < tensor.values.size(); ++i) {
      if (!std::isfinite(tensor.values[i])) {
        throw ModelError(path + ": weight " + std::to_string(i) + " of tensor " + tensor.name +
                         " is " + (std::isnan(tensor.values[i]) ? "NaN" : "infinite") +
                         " (not a usable model)");
      }
    }
  }
}

void writeModelFile(const std::string& path, const ModelInfo& info,
                    const std::vector<NamedTensor>& tensors) {
  requireFiniteWeights(tensors, "cannot write model file " + path);
  std::string weightBytes;
  for (const NamedTensor& tensor : tensors) {
    if (tensor.values.size() != elementCount(tensor)) {
      throw ModelError("cannot write model file: tensor " + tensor.name + " has " +
                       std::to_string(tensor.values.size()) + " values for its shape");
    }
    weightBytes.append(reinterpret_cast<const char*>(tensor.values.data()),
                       tensor.values.size() * sizeof(float));
  }
  const NetworkSizes sizes = networkSizesOf(info);
  const nlohmann::json header = {
      {"format_version", kModelFormatVersion},
      {"project_version", DEEPTUNE_VERSION},
      {"task", info.task},
      {"inputs", declaredInputs(info)},
      {"labels", info.labels},
      {"vocabulary", info.vocabulary},
      {"padding", info.paperPadding ? "paper" : "packed"},
      {"network", {{"embedding", sizes.embedding}, {"lstm", sizes.lstm}, {"dense", sizes.dense}}},
      {"training",
       {{"data_fingerprint", info.dataFingerprint},
        {"rows", info.trainingRows},
        {"command", info.trainingCommand},
        {"transferred_from", info.transferredFrom}}},
      {"weights",
       {{"bytes", weightBytes.size()},
        {"encoding", kWeightEncoding},
        {"tensors", tensorLayoutJson(tensors)}}},
  };
  const std::string rest = header.dump() + "\n" + weightBytes;
  try {
    data::writeFileAtomically(path, magicLine(kModelFormatVersion, rest) + rest);
  } catch (const data::OutputError& e) {
    throw ModelError(std::string("cannot write model file: ") + e.what());
  }
}

}  // namespace deeptune::model::internal
