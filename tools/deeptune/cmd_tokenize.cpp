// deeptune tokenize: encodes a file into the ids of a vocabulary file.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "tokenizer/vocabulary.hpp"
#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {

int runTokenize(const Args& args) {
  const std::string usage =
      "usage: deeptune tokenize FILE --vocab VOCAB.json [--strict] [--json]\n"
      "\n"
      "Encodes FILE with the vocabulary (a JSON array of tokens, e.g. from `deeptune vocab\n"
      "derive`) by maximal munch and prints the token ids separated by spaces. Characters not in\n"
      "the vocabulary are skipped and their count reported on stderr, unless --strict makes them\n"
      "an error. Input that is not text (NUL bytes, invalid UTF-8) is always an error (exit 2).";
  po::options_description options("options");
  std::string file;
  std::string vocabPath;
  options.add_options()("file", po::value(&file)->required(), "(positional) input text file")(
      "vocab", po::value(&vocabPath)->required(), "vocabulary file (JSON array of tokens)")(
      "strict", "a character not in the vocabulary is an error (exit 2) instead of skipped")(
      "json", "print {\"ids\":[...],\"skipped\":N} instead of plain ids");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, usage, options, positional, vm)) return kExitOk;

  const tokenizer::Vocabulary vocabulary = tokenizer::Vocabulary::load(vocabPath);
  const std::string text = readFile(file);
  const auto policy =
      vm.count("strict") ? tokenizer::UnknownPolicy::kStrict : tokenizer::UnknownPolicy::kSkip;
  const tokenizer::Encoding encoding = vocabulary.encode(text, policy, file);

  if (vm.count("json")) {
    const nlohmann::json out = {{"ids", encoding.ids}, {"skipped", encoding.skipped}};
    std::cout << out.dump() << "\n";
  } else {
    std::string line;
    line.reserve(encoding.ids.size() * 3);
    for (std::size_t i = 0; i < encoding.ids.size(); ++i) {
      if (i > 0) line += ' ';
      line += std::to_string(encoding.ids[i]);
    }
    std::cout << line << "\n";
  }
  if (encoding.skipped > 0) {
    std::cerr << "deeptune: tokenize: " << file << ": skipped " << encoding.skipped
              << " character(s) not in the vocabulary (--strict reports the first)\n";
  }
  return kExitOk;
}

}  // namespace deeptune::cli
