// The model file without LibTorch: magic line and checksum, JSON header, the weights' layout.
#include "model/internal/model_file_format.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <string_view>

#include "data/checksum.hpp"
#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "model/model_error.hpp"
#include "model/source_features.hpp"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the weights are stored little-endian");

namespace deeptune::model::internal {
namespace {

constexpr const char* kMagic = "DEEPTUNE-MODEL";
constexpr const char* kWeightEncoding = "float32-le";
constexpr int kMaxNetworks = 64;

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

/// The first line: magic, format version and the checksum of everything after the line. Versions
/// 4 to 6 name XXH3-64 (what `xxhsum -H3` prints); 2 and 3 wrote a non-standard checksum under the
/// name fnv1a64 (data::legacy64), checked as they wrote it.
std::string magicLine(int version, std::string_view rest) {
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

/// A boosted-tree head as the header stores it: per tree, parallel arrays of its nodes.
nlohmann::json headJson(const BoostedTreeHead& head) {
  nlohmann::json trees = nlohmann::json::array();
  for (const std::vector<TreeNode>& tree : head.trees) {
    nlohmann::json feature = nlohmann::json::array(), value = nlohmann::json::array(),
                   left = nlohmann::json::array(), right = nlohmann::json::array(),
                   defaultLeft = nlohmann::json::array();
    for (const TreeNode& node : tree) {
      feature.push_back(node.feature);
      value.push_back(node.value);
      left.push_back(node.left);
      right.push_back(node.right);
      defaultLeft.push_back(node.defaultLeft ? 1 : 0);
    }
    trees.push_back({{"feature", feature},
                     {"value", value},
                     {"left", left},
                     {"right", right},
                     {"default_left", defaultLeft}});
  }
  nlohmann::json json = {{"kind", "boosted-trees"},
                         {"features", head.features},
                         {"base_margin", head.baseMargin},
                         {"trees", trees}};
  if (head.tokenCounts) json["inputs"] = "state+token-counts";  // else the state alone
  return json;
}

/// The head of headJson's form; throws ModelError (without the path) or a JSON exception.
BoostedTreeHead headOf(const nlohmann::json& json) {
  if (json.at("kind") != "boosted-trees") {
    throw ModelError("unknown head kind " + json.at("kind").dump());
  }
  BoostedTreeHead head;
  head.features = json.at("features").get<int>();
  head.baseMargin = json.at("base_margin").get<double>();
  const std::string inputs = json.value("inputs", std::string("state"));
  if (inputs != "state" && inputs != "state+token-counts") {
    throw ModelError("unknown head inputs '" + inputs + "'");
  }
  head.tokenCounts = inputs == "state+token-counts";
  const auto& trees = json.at("trees");
  if (!trees.is_array() || trees.size() > 100000) throw ModelError("too many trees");
  for (const nlohmann::json& tree : trees) {
    const auto feature = tree.at("feature").get<std::vector<int32_t>>();
    const auto value = tree.at("value").get<std::vector<float>>();
    const auto left = tree.at("left").get<std::vector<int32_t>>();
    const auto right = tree.at("right").get<std::vector<int32_t>>();
    const auto defaultLeft = tree.at("default_left").get<std::vector<int>>();
    if (value.size() != feature.size() || left.size() != feature.size() ||
        right.size() != feature.size() || defaultLeft.size() != feature.size()) {
      throw ModelError("a tree's node arrays differ in length");
    }
    std::vector<TreeNode> nodes(feature.size());
    for (size_t n = 0; n < nodes.size(); ++n) {
      nodes[n] = {feature[n], value[n], left[n], right[n], defaultLeft[n] != 0};
    }
    head.trees.push_back(std::move(nodes));
  }
  checkBoostedTreeHead(head);
  return head;
}

/// Throws ModelError (without the path) unless `head` can read the network's rows: a devmap
/// model's pooled state and its launch inputs.
void checkHeadFits(const BoostedTreeHead& head, const ModelInfo& info) {
  checkBoostedTreeHead(head);
  const NetworkSizes sizes = networkSizesOf(info);
  const int64_t counts = head.tokenCounts ? sizes.vocabulary : 0;
  if (info.labels.size() != 2 || head.features != sizes.lstm + counts + sizes.auxInputs) {
    throw ModelError("a boosted-tree head over " + std::to_string(head.features) +
                     " features, for a two-label model's " + std::to_string(sizes.lstm) +
                     " state values, " + std::to_string(counts) + " token counts and " +
                     std::to_string(sizes.auxInputs) + " launch inputs");
  }
}

/// A calibration as a file holds it: {"method", "scale", "shift"} or {"method", "knots",
/// "values"}.
nlohmann::json calibrationJson(const ProbabilityCalibration& calibration) {
  nlohmann::json json = {{"method", calibration.method}};
  if (calibration.method == "isotonic") {
    json["knots"] = calibration.knots;
    json["values"] = calibration.values;
  } else if (calibration.method != "none") {
    json["scale"] = calibration.scale;
    json["shift"] = calibration.shift;
  }
  return json;
}

/// The calibration of calibrationJson's form, checked; throws ModelError (without the path) or a
/// JSON exception.
ProbabilityCalibration calibrationOf(const nlohmann::json& json) {
  ProbabilityCalibration calibration;
  calibration.method = json.at("method").get<std::string>();
  if (calibration.method == "isotonic") {
    if (json.at("knots").size() > 4096 || json.at("values").size() > 4096) {
      throw ModelError("calibration: isotonic with more than 4096 knots");
    }
    calibration.knots = json.at("knots").get<std::vector<double>>();
    calibration.values = json.at("values").get<std::vector<double>>();
  } else if (calibration.method != "none") {
    calibration.scale = json.at("scale").get<double>();
    calibration.shift = json.at("shift").get<double>();
  }
  checkCalibration(calibration);
  return calibration;
}

/// Training programs as a file holds them: per program, a flat array id, count, id, count, ...
nlohmann::json programsJson(const TrainingPrograms& programs) {
  nlohmann::json json = nlohmann::json::array();
  for (const TrainingPrograms::Counts& counts : programs.counts()) {
    std::vector<int> flat;
    for (const auto& [id, count] : counts) flat.insert(flat.end(), {id, count});
    json.push_back(flat);
  }
  return json;
}

/// The programs of programsJson's form, checked; throws ModelError (without the path) or a JSON
/// exception.
std::shared_ptr<const TrainingPrograms> programsOf(const nlohmann::json& json,
                                                   size_t vocabularySize) {
  if (!json.is_array() || json.size() > 100000) {
    throw ModelError("training programs: an array of at most 100000 programs expected");
  }
  std::vector<TrainingPrograms::Counts> programs;
  for (const nlohmann::json& program : json) {
    if (!program.is_array() || program.size() % 2 != 0 || program.size() > 2 * vocabularySize) {
      throw ModelError("training programs: program " + std::to_string(programs.size() + 1) +
                       " is not id, count pairs of the vocabulary");
    }
    TrainingPrograms::Counts counts;
    const auto whole = [&](const nlohmann::json& value) {  // checked before any narrowing
      const int64_t number = value.is_number_integer() ? value.get<int64_t>() : -1;
      if (number < 0 || number > std::numeric_limits<int>::max()) {
        throw ModelError("training programs: program " + std::to_string(programs.size() + 1) +
                         " holds " + value.dump() + " (whole numbers from 0 expected)");
      }
      return static_cast<int>(number);
    };
    for (size_t i = 0; i < program.size(); i += 2) {
      counts.emplace_back(whole(program[i]), whole(program[i + 1]));
    }
    programs.push_back(std::move(counts));
  }
  return std::make_shared<const TrainingPrograms>(
      TrainingPrograms::fromCounts(std::move(programs), vocabularySize));
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
  if (info.lstmSize < 32 || info.lstmSize > 512 || info.lstmSize % 32 != 0) {
    throw ModelError("LSTM size " + std::to_string(info.lstmSize) +
                     " is not a multiple of 32 from 32 to 512");
  }
  if (info.auxScale != "raw" && info.auxScale != "log2") {
    throw ModelError("unknown scale '" + info.auxScale + "' of the auxiliary inputs (raw, log2)");
  }
  if (info.pooling != "last" && info.pooling != "mean") {
    throw ModelError("unknown pooling '" + info.pooling + "' of the token states (last, mean)");
  }
  if (info.method == "source-boosted") {
    parseSourceFeatureViews(info.sourceFeatures);
    if (info.labels.size() != 2) throw ModelError("a source-boosted model needs two labels");
  } else if (info.method == "fixed-factor") {
    if (info.task != "coarsening" || info.fixedLabel < 0 ||
        info.fixedLabel >= static_cast<int>(info.labels.size())) {
      throw ModelError("a fixed-factor model is a coarsening model naming one of its labels");
    }
  } else if (info.method != "deeptune" && info.method != "language-model") {
    throw ModelError("unknown predictor '" + info.method +
                     "' (deeptune, source-boosted, fixed-factor, language-model)");
  }
  checkCalibration(info.calibration);
  if ((info.calibration.method != "none" || info.trainingPrograms) &&
      info.method != "source-boosted") {
    throw ModelError(
        "only a source-boosted predictor holds a calibration or training programs, "
        "not '" +
        info.method + "'");
  }
  if (!info.deviceNames.empty() || !info.deviceTypes.empty()) {
    if (info.task != "devmap" || info.deviceNames.size() != 2 || info.deviceTypes.size() != 2 ||
        info.deviceNames[0].empty() || info.deviceNames[0] == info.deviceNames[1] ||
        info.deviceTypes[0].empty() || info.deviceTypes[1].empty()) {
      throw ModelError("a model's devices must be two distinct named devices of a devmap model");
    }
  }
}

/// Says what is wrong with a file whose magic line does not match its contents: another format
/// version, cut short, grown, or changed. Always throws.
[[noreturn]] void diagnoseMismatch(const std::string& path, const std::string& magic, int version,
                                   std::string_view rest, const nlohmann::json& header,
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
  if (header.contains("devices")) {
    for (const auto& device : header.at("devices")) {
      info.deviceNames.push_back(device.at("name").get<std::string>());
      info.deviceTypes.push_back(device.at("type").get<std::string>());
    }
  }
  if (header.contains("network") && header.at("network").contains("lstm")) {
    info.lstmSize = header.at("network").at("lstm").get<int>();
  }
  if (header.contains("predictor")) {
    const auto& predictor = header.at("predictor");
    info.method = predictor.at("method").get<std::string>();
    info.sourceFeatures = predictor.value("features", std::string());
    info.fixedLabel = predictor.value("label", -1);
    // What format 8 adds: read with the path in its errors, refused in an older file.
    const auto format8Part = [&](const char* key, const char* what, const auto& read) {
      if (!predictor.contains(key)) return;
      if (header.at("format_version").get<int>() < kModelFormatVersion) {
        throw ModelError(path + ": " + what + " in a format " + header.at("format_version").dump() +
                         " file (format " + std::to_string(kModelFormatVersion) + " holds it)");
      }
      try {
        read(predictor.at(key));
      } catch (const ModelError& e) {
        throw ModelError(path + ": " + e.what());
      }
    };
    format8Part("calibration", "a calibration",
                [&](const nlohmann::json& json) { info.calibration = calibrationOf(json); });
    format8Part("programs", "training programs", [&](const nlohmann::json& json) {
      info.trainingPrograms = programsOf(json, info.vocabulary.size());
    });
  }
  if (header.at("format_version").get<int>() == kModelFormatVersion &&
      info.calibration.method == "none" && !info.trainingPrograms) {
    throw ModelError(path + ": a format " + std::to_string(kModelFormatVersion) +
                     " file without a calibration or training programs");
  }
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

/// Versions 3 to 6's weights: exactly the network's tensors, in the layout's order, as the header
/// says, once per network (versions 5 and 6 may hold several, and a head for each).
std::vector<ModelMember> membersOf(const nlohmann::json& header, std::string_view weightBytes,
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
  const std::vector<NamedTensor> layout = networkTensorLayout(sizes);
  if (weights.at("tensors") != tensorLayoutJson(layout)) {
    throw ModelError(path + ": the weights' tensors do not fit the declared network");
  }
  const int version = header.at("format_version").get<int>();
  const int networks = version >= 5 ? weights.at("networks").get<int>() : 1;
  if (networks < 1 || networks > kMaxNetworks) {
    throw ModelError(path + ": " + std::to_string(networks) + " networks (1 to " +
                     std::to_string(kMaxNetworks) + " expected)");
  }
  nlohmann::json heads = nlohmann::json::array();
  if (version >= 5) {
    heads = header.at("heads");
    if (!heads.is_array() || heads.size() != static_cast<size_t>(networks)) {
      throw ModelError(path + ": one head (or null) per network expected");
    }
  }
  std::vector<ModelMember> members(static_cast<size_t>(networks));
  size_t offset = 0;
  for (size_t m = 0; m < members.size(); ++m) {
    members[m].tensors = layout;
    for (NamedTensor& tensor : members[m].tensors) {
      const size_t count = elementCount(tensor);
      if (weightBytes.size() - offset < count * sizeof(float)) {
        throw ModelError(path + ": the weights' tensors do not fit the declared network");
      }
      tensor.values.resize(count);
      std::memcpy(tensor.values.data(), weightBytes.data() + offset, count * sizeof(float));
      offset += count * sizeof(float);
    }
    requireFiniteWeights(members[m].tensors, path);
    if (version >= 5 && !heads[m].is_null()) {
      try {
        members[m].head = headOf(heads[m]);
        checkHeadFits(*members[m].head, info);
      } catch (const ModelError& e) {
        throw ModelError(path + ": network " + std::to_string(m + 1) + "'s head: " + e.what());
      }
    }
  }
  if (offset != weightBytes.size()) {
    throw ModelError(path + ": the weights' tensors do not fit the declared network");
  }
  return members;
}

/// A source-boosted predictor's models, each read and checked against the rows its features
/// make; none for a fixed factor. Throws ModelError (with the path) or a JSON exception.
std::vector<BoostedTreeHead> forestOf(const nlohmann::json& predictor, const ModelInfo& info,
                                      const std::string& path) {
  std::vector<BoostedTreeHead> forest;
  if (info.method != "source-boosted") return forest;
  const auto& models = predictor.at("forest");
  if (!models.is_array() || models.empty() || models.size() > static_cast<size_t>(kMaxNetworks)) {
    throw ModelError(path + ": a source-boosted predictor of 1 to " + std::to_string(kMaxNetworks) +
                     " boosted-tree models expected");
  }
  const std::vector<SourceFeatureSet> views = parseSourceFeatureViews(info.sourceFeatures);
  if (models.size() % views.size() != 0) {
    throw ModelError(path + ": " + std::to_string(models.size()) + " boosted-tree models for " +
                     std::to_string(views.size()) +
                     " feature sets (the same number for each expected)");
  }
  for (const nlohmann::json& model : models) {
    const size_t width = sourceFeatureWidth(views[forest.size() % views.size()],
                                            info.vocabulary.size(), info.auxInputs.size());
    try {
      forest.push_back(headOf(model));
    } catch (const ModelError& e) {
      throw ModelError(path + ": boosted-tree model " + std::to_string(forest.size() + 1) + ": " +
                       e.what());
    }
    if (forest.back().features != static_cast<int>(width) || forest.back().tokenCounts) {
      throw ModelError(path + ": a boosted-tree model over " +
                       std::to_string(forest.back().features) + " features, its rows (" +
                       sourceFeatureSetName(views[(forest.size() - 1) % views.size()]) + ") have " +
                       std::to_string(width));
    }
  }
  return forest;
}

/// The header every format from 4 writes (everything but the weights' layout and the heads).
nlohmann::json commonHeader(const ModelInfo& info, int version) {
  nlohmann::json header = {
      {"format_version", version},
      {"project_version", DEEPTUNE_VERSION},
      {"task", info.task},
      {"inputs", declaredInputs(info)},
      {"labels", info.labels},
      {"vocabulary", info.vocabulary},
      {"padding", info.paperPadding ? "paper" : "packed"},
      {"training",
       {{"data_fingerprint", info.dataFingerprint},
        {"rows", info.trainingRows},
        {"command", info.trainingCommand},
        {"transferred_from", info.transferredFrom}}},
  };
  if (!info.deviceNames.empty()) {
    header["devices"] = nlohmann::json::array();
    for (size_t i = 0; i < info.deviceNames.size(); ++i) {
      header["devices"].push_back({{"name", info.deviceNames[i]}, {"type", info.deviceTypes[i]}});
    }
  }
  return header;
}

/// Writes the magic line, `header` and `weightBytes` atomically.
void writeWithHeader(const std::string& path, int version, const nlohmann::json& header,
                     const std::string& weightBytes) {
  const std::string rest = header.dump() + "\n" + weightBytes;
  try {
    data::writeFileAtomically(path, magicLine(version, rest) + rest);
  } catch (const data::OutputError& e) {
    throw ModelError(std::string("cannot write model file: ") + e.what());
  }
}

}  // namespace

bool holdsNetworks(const ModelInfo& info) {
  return info.method == "deeptune" || info.method == "language-model";
}

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
                     "with this deeptune, which reads versions 2 to " +
                     std::to_string(kModelFormatVersion));
  }
  int version = 0;  // "DEEPTUNE-MODEL <version> <checksum name>=<hex>", 2 to kModelFormatVersion
  const size_t versionStart = std::strlen(kMagic) + 1;
  if (magic.size() > versionStart + 1 && magic[versionStart - 1] == ' ' &&
      magic[versionStart] >= '2' && magic[versionStart] <= '0' + kModelFormatVersion &&
      magic[versionStart + 1] == ' ') {
    version = magic[versionStart] - '0';
  }
  const std::string_view rest = std::string_view(bytes).substr(magicEnd + 1);  // no copies
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
    const std::string_view weightBytes = rest.substr(headerEnd + 1);
    if (weightBytes.size() != header.at("weights").at("bytes").get<size_t>()) {
      throw ModelError(path + ": weights of " + std::to_string(weightBytes.size()) +
                       " bytes, the header declares " + header.at("weights").at("bytes").dump());
    }
    if (version == 2) {
      file.torchArchive = std::string(weightBytes);
    } else if (!holdsNetworks(file.info)) {
      if (version < kPredictorFormatVersion || !weightBytes.empty()) {
        throw ModelError(path + ": a '" + file.info.method +
                         "' predictor holds no weights (format 7)");
      }
      file.forest = forestOf(header.at("predictor"), file.info, path);
      file.info.networks = 0;
      file.info.forest = static_cast<int>(file.forest.size());
    } else {
      file.members = membersOf(header, weightBytes, file.info, path);
      file.info.networks = static_cast<int>(file.members.size());
      file.info.boostedHeads = std::any_of(file.members.begin(), file.members.end(),
                                           [](const ModelMember& m) { return m.head.has_value(); });
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

int formatVersionFor(const ModelInfo& info, size_t networks, bool heads) {
  if (!holdsNetworks(info)) {
    return info.calibration.method != "none" || info.trainingPrograms ? kModelFormatVersion
                                                                      : kPredictorFormatVersion;
  }
  // A pretrained language model is new in format 7; the other network files keep the oldest
  // version that holds them, so that older programs still read them.
  if (info.method == "language-model") return kPredictorFormatVersion;
  if (!info.deviceNames.empty()) return kMeasuredDevicesFormatVersion;
  return networks == 1 && !heads ? kSingleNetworkFormatVersion : kEnsembleFormatVersion;
}

void writeModelFile(const std::string& path, const ModelInfo& info,
                    const std::vector<ModelMember>& members) {
  if (members.empty() || members.size() > static_cast<size_t>(kMaxNetworks)) {
    throw ModelError("cannot write model file " + path + ": " + std::to_string(members.size()) +
                     " networks (1 to " + std::to_string(kMaxNetworks) + ")");
  }
  std::string weightBytes;
  nlohmann::json heads = nlohmann::json::array();
  bool anyHead = false;
  for (const ModelMember& member : members) {
    requireFiniteWeights(member.tensors, "cannot write model file " + path);
    if (tensorLayoutJson(member.tensors) != tensorLayoutJson(members.front().tensors)) {
      throw ModelError("cannot write model file " + path + ": its networks differ in shape");
    }
    for (const NamedTensor& tensor : member.tensors) {
      if (tensor.values.size() != elementCount(tensor)) {
        throw ModelError("cannot write model file: tensor " + tensor.name + " has " +
                         std::to_string(tensor.values.size()) + " values for its shape");
      }
      weightBytes.append(reinterpret_cast<const char*>(tensor.values.data()),
                         tensor.values.size() * sizeof(float));
    }
    if (member.head) {
      try {
        checkHeadFits(*member.head, info);
      } catch (const ModelError& e) {
        throw ModelError("cannot write model file " + path + ": " + e.what());
      }
      heads.push_back(headJson(*member.head));
      anyHead = true;
    } else {
      heads.push_back(nullptr);
    }
  }
  if (!holdsNetworks(info)) {
    throw ModelError("cannot write model file " + path + ": a '" + info.method +
                     "' predictor has no network");
  }
  const int version = formatVersionFor(info, members.size(), anyHead);
  const NetworkSizes sizes = networkSizesOf(info);
  nlohmann::json header = commonHeader(info, version);
  header["network"] = {
      {"embedding", sizes.embedding}, {"lstm", sizes.lstm}, {"dense", sizes.dense}};
  header["weights"] = {{"bytes", weightBytes.size()},
                       {"encoding", kWeightEncoding},
                       {"tensors", tensorLayoutJson(members.front().tensors)}};
  if (version >= 5) {
    header["weights"]["networks"] = members.size();
    header["heads"] = heads;
  }
  if (info.method != "deeptune") header["predictor"] = {{"method", info.method}};
  writeWithHeader(path, version, header, weightBytes);
}

void writePredictorFile(const std::string& path, const ModelInfo& info,
                        const std::vector<BoostedTreeHead>& forest) {
  const bool calibrated = info.calibration.method != "none";
  const bool programs = info.trainingPrograms != nullptr;
  const int version = formatVersionFor(info, 0, false);
  nlohmann::json header = commonHeader(info, version);
  nlohmann::json predictor = {{"method", info.method}};
  if (calibrated) predictor["calibration"] = calibrationJson(info.calibration);
  if (programs) predictor["programs"] = programsJson(*info.trainingPrograms);
  if (info.method == "source-boosted") {
    predictor["features"] = info.sourceFeatures;
    predictor["forest"] = nlohmann::json::array();
    for (const BoostedTreeHead& model : forest) predictor["forest"].push_back(headJson(model));
  } else if (info.method == "fixed-factor") {
    predictor["label"] = info.fixedLabel;
  }
  header["predictor"] = predictor;
  header["weights"] = {{"bytes", 0}, {"encoding", kWeightEncoding}};
  try {
    validateInfo(info);
  } catch (const ModelError& e) {
    throw ModelError("cannot write model file " + path + ": " + e.what());
  }
  forestOf(predictor, info, "cannot write model file " + path);
  writeWithHeader(path, version, header, "");
}

}  // namespace deeptune::model::internal
