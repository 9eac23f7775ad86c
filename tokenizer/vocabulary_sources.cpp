// Vocabularies derived from text files or a CSV column; an encoding as text.
#include "tokenizer/vocabulary_sources.hpp"

#include <nlohmann/json.hpp>

#include "data/csv_reader.hpp"
#include "data/file_io.hpp"

namespace deeptune::tokenizer {

Vocabulary vocabularyFromFiles(const std::vector<std::string>& files) {
  std::vector<std::string> texts;
  for (const std::string& file : files) {
    texts.push_back(file == "-" ? data::readStandardInput(data::kMaxSourceBytes)
                                : data::readFileBytes(file, data::kMaxSourceBytes));
    requireText(texts.back(), file);
  }
  const std::string name =
      files.size() == 1 ? files[0]
                        : files[0] + " and " + std::to_string(files.size() - 1) + " more file(s)";
  return Vocabulary::deriveFromTexts({texts.begin(), texts.end()}, name);
}

Vocabulary vocabularyFromCsv(const std::string& csv, const std::string& column) {
  const data::CsvTable table = data::readCsv(csv);
  const std::size_t index = table.column(column);
  std::vector<std::string_view> texts;
  for (const auto& row : table.rows) texts.push_back(row[index]);
  return Vocabulary::deriveFromTexts(texts, csv);
}

std::string encodingText(const Encoding& encoding, bool json, const std::string& kernel) {
  if (json) {
    nlohmann::json object{{"ids", encoding.ids}, {"skipped", encoding.skipped}};
    if (!kernel.empty()) object["kernel"] = kernel;
    return object.dump();
  }
  std::string line = kernel.empty() ? "" : kernel + ": ";
  line.reserve(encoding.ids.size() * 3);
  for (std::size_t i = 0; i < encoding.ids.size(); ++i) {
    if (i > 0) line += ' ';
    line += std::to_string(encoding.ids[i]);
  }
  return line;
}

}  // namespace deeptune::tokenizer
