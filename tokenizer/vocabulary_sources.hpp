// Vocabularies derived from what `deeptune vocab derive` reads: text files, or a CSV column; and an
// encoding as the text `deeptune tokenize` prints.
#pragma once

#include <string>
#include <vector>

#include "tokenizer/vocabulary.hpp"

namespace deeptune::tokenizer {

/// The vocabulary of `files` ("-": standard input) joined with '\n' (Vocabulary::deriveFromTexts),
/// named after the first file ("a.cl and 2 more file(s)"). Throws data::DataError for a file that
/// cannot be read (over data::kMaxSourceBytes included) and VocabError for one that is not text.
Vocabulary vocabularyFromFiles(const std::vector<std::string>& files);

/// The vocabulary of column `column` of every row of the CSV `csv` (the CSV reader rejects cells
/// that are not text). Throws data::DataError for a bad file or a missing column.
Vocabulary vocabularyFromCsv(const std::string& csv, const std::string& column);

/// The ids separated by single spaces (no newline), or with `json` the object
/// {"ids":[...],"skipped":N}; with a `kernel` name, "KERNEL: ids" or the object with "kernel".
std::string encodingText(const Encoding& encoding, bool json, const std::string& kernel = "");

}  // namespace deeptune::tokenizer
