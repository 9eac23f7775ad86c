// deeptune tokenize: encodes files into the ids of a vocabulary file, one line each.
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tokenizer/vocabulary_sources.hpp"
#ifdef DEEPTUNE_WITH_REWRITER
#include "rewriter/normalizer.hpp"
#endif
#include "tools/deeptune/commands.hpp"
#include "tools/deeptune/each_input.hpp"

namespace deeptune::cli {

int runTokenize(const Args& args) {
  const std::string usage =
      "usage: deeptune tokenize FILE... --vocab VOCAB.json [--strict] [--json]\n"
      "                         [--rewrite [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...]\n"
      "\n"
      "Encodes each FILE with the vocabulary (a JSON array of tokens, e.g. from `deeptune vocab\n"
      "derive`) by maximal munch and prints its token ids separated by spaces, one line per\n"
      "file (a file that fails gets its error line; the others still run). Characters not in\n"
      "the vocabulary are skipped and their count reported on stderr, unless --strict makes them\n"
      "an error. Input that is not text (NUL bytes, invalid UTF-8) is always an error (exit 2).\n"
      "With --rewrite, FILE is raw OpenCL: each of its kernels is cut out and normalized as the\n"
      "models read it (with the host's -D/-I; --kernel NAME: that one only) and encoded, one\n"
      "line per kernel in source order: the ids alone for a file of one kernel, \"NAME: ids\"\n"
      "for a file of several (--json: {\"kernel\":NAME,\"ids\":[...],\"skipped\":N}).";
  po::options_description options("options");
  std::vector<std::string> files;
  std::string vocabPath;
  options.add_options()("file", po::value(&files), "(positional) input text files")(
      "vocab", po::value(&vocabPath)->required(), "vocabulary file (JSON array of tokens)")(
      "strict", "a character not in the vocabulary is an error (exit 2) instead of skipped")(
      "json", "print {\"ids\":[...],\"skipped\":N} instead of plain ids");
  std::string kernel;
  SourceOptionValues sourceValues;
#ifdef DEEPTUNE_WITH_REWRITER
  options.add_options()("rewrite", "normalize FILE (raw OpenCL) before encoding it")(
      "kernel,k", po::value(&kernel),
      "with --rewrite: this kernel only, extracted as predict does");
  addSourceOptions(options, sourceValues);
#endif
  po::positional_options_description positional;
  positional.add("file", -1);
  po::variables_map vm;
  if (!parseOptions(args, usage, options, positional, vm)) return kExitOk;

  const bool rewrite = vm.count("rewrite") != 0;
  if (!rewrite &&
      (!kernel.empty() || !sourceValues.defines.empty() || !sourceValues.includeDirs.empty())) {
    throw UsageError("tokenize: --kernel, -D and -I apply to raw OpenCL: add --rewrite");
  }
  const data::SourceOptions sourceOptions = sourceValues.validated();
  const tokenizer::Vocabulary vocabulary = tokenizer::Vocabulary::load(vocabPath);
  if (files.empty()) throw UsageError("tokenize: no input file given");
  const auto policy =
      vm.count("strict") ? tokenizer::UnknownPolicy::kStrict : tokenizer::UnknownPolicy::kSkip;
  const bool json = vm.count("json") != 0;
#ifdef DEEPTUNE_WITH_REWRITER
  std::optional<rewriter::Normalizer> normalizer;  // one for every file: its worker is reused
  if (rewrite) normalizer.emplace();
#endif
  return forEachInput("tokenize", files, [&](std::string& file) {
    // The texts to encode: the file as it is, or (--rewrite) its kernels as the models read them.
    std::vector<std::pair<std::string, std::string>> texts;  // kernel name ("" unnamed), text
    std::string text = readInputArgument(file);
#ifdef DEEPTUNE_WITH_REWRITER
    if (normalizer) {
      rewriter::RewriteNotes notes;
      if (kernel.empty()) {
        for (auto& extracted : normalizer->extractEveryKernel(text, file, sourceOptions, &notes)) {
          texts.emplace_back(std::move(extracted.name.original), std::move(extracted.text));
        }
      } else {
        rewriter::KernelName chosen;
        texts.emplace_back(
            "", normalizer->extractKernel(text, file, kernel, &chosen, sourceOptions, &notes));
        texts.back().first = chosen.original;
      }
      printUndeclaredNote(file, notes.undeclared);
    }
#endif
    if (texts.empty()) texts.emplace_back("", std::move(text));
    // JSON names every kernel; a plain line only where the file has several.
    const bool named = json || texts.size() > 1;
    size_t skipped = 0;
    std::vector<std::string> lines;
    for (const auto& [name, kernelText] : texts) {
      const tokenizer::Encoding encoding = vocabulary.encode(kernelText, policy, file);
      lines.push_back(tokenizer::encodingText(encoding, json, named ? name : ""));
      skipped += encoding.skipped;
    }
    for (const std::string& line : lines) std::cout << line << "\n";
    if (skipped > 0) {
      std::cerr << "deeptune: tokenize: " << file << ": skipped " << skipped
                << " character(s) not in the vocabulary (--strict reports the first)\n";
    }
  });
}

}  // namespace deeptune::cli
