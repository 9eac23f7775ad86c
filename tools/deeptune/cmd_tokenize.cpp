// deeptune tokenize: encodes files into the ids of a vocabulary file, one line each.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

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
      "With --rewrite, FILE is raw OpenCL: it is normalized first (one kernel with --kernel, with\n"
      "the host's -D/-I), and the ids are those the model reads.";
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
  return forEachInput("tokenize", files, [&](std::string& file) {
    std::string text = readInputArgument(file);
#ifdef DEEPTUNE_WITH_REWRITER
    if (rewrite) {
      const rewriter::Normalizer normalizer;
      rewriter::RewriteNotes notes;
      text = kernel.empty()
                 ? normalizer.normalize(text, file, sourceOptions, &notes)
                 : normalizer.extractKernel(text, file, kernel, nullptr, sourceOptions, &notes);
      printUndeclaredNote(file, notes.undeclared);
    }
#endif
    const auto policy =
        vm.count("strict") ? tokenizer::UnknownPolicy::kStrict : tokenizer::UnknownPolicy::kSkip;
    const tokenizer::Encoding encoding = vocabulary.encode(text, policy, file);

    std::cout << tokenizer::encodingText(encoding, vm.count("json") != 0) << "\n";
    if (encoding.skipped > 0) {
      std::cerr << "deeptune: tokenize: " << file << ": skipped " << encoding.skipped
                << " character(s) not in the vocabulary (--strict reports the first)\n";
    }
  });
}

}  // namespace deeptune::cli
