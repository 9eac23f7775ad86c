// The model file: a magic line with the checksum of the rest, a JSON header (metadata, declared
// inputs), the weights.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>

#include "data/checksum.hpp"
#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "model/internal/model_state.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {
namespace {

constexpr const char* kMagic = "DEEPTUNE-MODEL";
constexpr int kFormatVersion = 2;

/// The inputs a task's model takes, declared once by name, type and shape.
nlohmann::json declaredInputs(const ModelInfo& info) {
  nlohmann::json inputs = nlohmann::json::array();
  inputs.push_back(
      {{"name", "tokens"}, {"type", "int64"}, {"shape", {-1}}, {"max_length", info.maxLength}});
  for (const auto& name : info.auxInputs) {
    inputs.push_back({{"name", name}, {"type", "float32"}, {"shape", {1}}});
  }
  return inputs;
}

std::vector<std::string> expectedAuxInputs(const std::string& task) {
  if (task == "devmap") return {"transfer", "wgsize"};
  if (task == "coarsening") return {};
  return {"?"};
}

/// The first line: magic, format version and the checksum of everything after the line.
std::string magicLine(const std::string& rest) {
  return std::string(kMagic) + " " + std::to_string(kFormatVersion) +
         " fnv1a64=" + data::hex64(data::fnv1a64(rest)) + "\n";
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
}

}  // namespace

void DeepTuneModel::save(const std::string& path) const {
  std::ostringstream weights;
  {
    torch::serialize::OutputArchive archive;
    impl_->net->save(archive);
    archive.save_to(weights);
  }
  const std::string weightBytes = weights.str();
  const ModelInfo& info = impl_->info;
  const auto options = internal::networkOptions(info);
  const nlohmann::json header = {
      {"format_version", kFormatVersion},
      {"project_version", DEEPTUNE_VERSION},
      {"task", info.task},
      {"inputs", declaredInputs(info)},
      {"labels", info.labels},
      {"vocabulary", info.vocabulary},
      {"padding", info.paperPadding ? "paper" : "packed"},
      {"network",
       {{"embedding", options.embeddingSize},
        {"lstm", options.lstmSize},
        {"dense", options.denseSize}}},
      {"training",
       {{"data_fingerprint", info.dataFingerprint},
        {"rows", info.trainingRows},
        {"command", info.trainingCommand},
        {"transferred_from", info.transferredFrom}}},
      {"weights", {{"bytes", weightBytes.size()}}},
  };
  const std::string rest = header.dump() + "\n" + weightBytes;
  try {
    data::writeFileAtomically(path, magicLine(rest) + rest);
  } catch (const data::OutputError& e) {
    throw ModelError(std::string("cannot write model file: ") + e.what());
  }
}

DeepTuneModel DeepTuneModel::load(const std::string& path) {
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
                     "with this deeptune, which reads version " + std::to_string(kFormatVersion));
  }
  const std::string rest = bytes.substr(magicEnd + 1);
  const size_t headerEnd = rest.find('\n');
  nlohmann::json header;
  if (headerEnd != std::string::npos) {
    header = nlohmann::json::parse(rest.substr(0, headerEnd), nullptr, /*allow_exceptions=*/false);
  }
  // Say what is wrong with a file that fails its checksum: cut short, grown, or changed.
  if (magic != magicLine(rest).substr(0, magicLine(rest).size() - 1)) {
    if (magic.rfind(std::string(kMagic) + " " + std::to_string(kFormatVersion) + " ", 0) != 0) {
      throw ModelError(path + ": model format '" + magic.substr(std::strlen(kMagic)) +
                       "', this deeptune reads version " + std::to_string(kFormatVersion));
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
  if (header.is_discarded()) throw ModelError(path + ": corrupt model header (not JSON)");
  ModelInfo info;
  try {
    if (header.at("format_version").get<int>() != kFormatVersion) {
      throw ModelError(path + ": model format version " + header.at("format_version").dump() +
                       ", this deeptune reads version " + std::to_string(kFormatVersion));
    }
    info.task = header.at("task").get<std::string>();
    info.vocabulary = header.at("vocabulary").get<std::vector<std::string>>();
    info.labels = header.at("labels").get<std::vector<std::string>>();
    info.paperPadding = header.at("padding").get<std::string>() == "paper";
    const auto& inputs = header.at("inputs");
    info.maxLength = inputs.at(0).at("max_length").get<int>();
    for (size_t i = 1; i < inputs.size(); ++i) {
      info.auxInputs.push_back(inputs.at(i).at("name").get<std::string>());
    }
    const std::string padding = header.at("padding").get<std::string>();
    if (padding != "paper" && padding != "packed") {
      throw ModelError(path + ": unknown padding mode '" + padding + "'");
    }
    info.dataFingerprint = header.at("training").at("data_fingerprint").get<std::string>();
    info.trainingRows = header.at("training").at("rows").get<int>();
    info.trainingCommand = header.at("training").at("command").get<std::string>();
    info.transferredFrom = header.at("training").value("transferred_from", std::string());
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
    const std::string weightBytes = rest.substr(headerEnd + 1);
    if (weightBytes.size() != header.at("weights").at("bytes").get<size_t>()) {
      throw ModelError(path + ": weights of " + std::to_string(weightBytes.size()) +
                       " bytes, the header declares " + header.at("weights").at("bytes").dump());
    }
    DeepTuneModel model(info, 0);
    std::istringstream weightStream(weightBytes);
    torch::serialize::InputArchive archive;
    archive.load_from(weightStream);
    model.impl_->net->load(archive);
    model.impl_->net->eval();
    return model;
  } catch (const nlohmann::json::exception& e) {
    throw ModelError(path + ": model header lacks a field: " + e.what());
  } catch (const c10::Error& e) {
    throw ModelError(path + ": weights do not fit the declared network: " +
                     std::string(e.what_without_backtrace()).substr(0, 200));
  }
}

}  // namespace deeptune::model
