// The model file: a magic line, a JSON header (metadata, declared inputs, checksum), the weights.
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "model/internal/model_state.hpp"
#include "model/model_error.hpp"

namespace deeptune::model {
namespace {

constexpr const char* kMagic = "DEEPTUNE-MODEL\n";
constexpr int kFormatVersion = 1;

uint64_t fnv1a(const std::string& bytes) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

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
        {"command", info.trainingCommand}}},
      {"weights", {{"bytes", weightBytes.size()}, {"fnv1a64", hex(fnv1a(weightBytes))}}},
  };
  try {
    data::writeFileAtomically(path, kMagic + header.dump() + "\n" + weightBytes);
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
  const std::string magic = kMagic;
  if (bytes.compare(0, magic.size(), magic) != 0) {
    throw ModelError(path + ": not a deeptune model file (no DEEPTUNE-MODEL header)");
  }
  const size_t headerEnd = bytes.find('\n', magic.size());
  if (headerEnd == std::string::npos) throw ModelError(path + ": truncated model file (header)");
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(bytes.substr(magic.size(), headerEnd - magic.size()));
  } catch (const nlohmann::json::exception& e) {
    throw ModelError(path + ": corrupt model header: " + e.what());
  }
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
    info.dataFingerprint = header.at("training").at("data_fingerprint").get<std::string>();
    info.trainingRows = header.at("training").at("rows").get<int>();
    info.trainingCommand = header.at("training").at("command").get<std::string>();
    if (header.at("inputs") != declaredInputs(info) ||
        info.auxInputs != expectedAuxInputs(info.task)) {
      throw ModelError(path + ": model inputs " + header.at("inputs").dump() +
                       " do not match task '" + info.task + "'");
    }
    const std::string weightBytes = bytes.substr(headerEnd + 1);
    const auto& weights = header.at("weights");
    if (weightBytes.size() != weights.at("bytes").get<size_t>()) {
      throw ModelError(path +
                       ": truncated model file (weights: " + std::to_string(weightBytes.size()) +
                       " of " + weights.at("bytes").dump() + " bytes)");
    }
    if (hex(fnv1a(weightBytes)) != weights.at("fnv1a64").get<std::string>()) {
      throw ModelError(path + ": corrupt model file (weights checksum mismatch)");
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
