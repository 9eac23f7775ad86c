// The normalizer pipeline of SPEC.md §1: input checks, then stages 2 to 7, and kernel extraction.
#include "rewriter/normalizer.hpp"

#include <algorithm>
#include <cctype>

#include "data/text_check.hpp"
#include "rewriter/internal/passes.hpp"
#include "rewriter/rewrite_error.hpp"

namespace deeptune::rewriter {
namespace {

using internal::RenamedText;

/// Rejects text nested or chained beyond kMaxNesting / kMaxStatementTokens, naming where. Tokens
/// are counted roughly (a word or number is one, any other character one); comments and
/// literals are skipped. `lineOf` maps a line of `text` to the user's line (preprocessed text).
void checkStructure(std::string_view text, const std::string& fileName,
                    const std::vector<int>* lineOf = nullptr) {
  int line = 1, column = 1, depth = 0, tokens = 0, statementLine = 1, statementColumn = 1;
  auto fail = [&](int atLine, int atColumn, const std::string& what) {
    const size_t index = static_cast<size_t>(atLine - 1);
    if (lineOf != nullptr && index < lineOf->size() && (*lineOf)[index] > 0) {
      atLine = (*lineOf)[index];
    }
    throw RewriteError(fileName, atLine, atColumn, what);
  };
  bool inWord = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    if (c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
      const bool block = text[i + 1] == '*';
      const size_t end = block ? text.find("*/", i + 2) : text.find('\n', i);
      const size_t stop = end == std::string_view::npos ? text.size() : end + (block ? 2 : 0);
      for (; i < stop; ++i) {
        if (text[i] == '\n') ++line, column = 1;
      }
      --i;
      inWord = false;
      continue;
    }
    if (c == '"' || c == '\'') {  // a literal is one token
      size_t j = i + 1;
      while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      column += static_cast<int>(std::min(j, text.size()) - i);
      i = std::min(j, text.size() - 1);
      ++tokens;
      inWord = false;
      continue;
    }
    if (word && !inWord) ++tokens;
    if (!word && !std::isspace(static_cast<unsigned char>(c))) ++tokens;
    inWord = word;
    if (c == '(' || c == '[' || c == '{') {
      if (++depth > kMaxNesting) {
        fail(line, column,
             "brackets nested deeper than " + std::to_string(kMaxNesting) + " levels");
      }
    } else if (c == ')' || c == ']' || c == '}') {
      depth = std::max(0, depth - 1);
    }
    if (tokens > kMaxStatementTokens) {
      fail(statementLine, statementColumn,
           "a statement of more than " + std::to_string(kMaxStatementTokens) + " tokens");
    }
    if (c == ';' || c == '{' || c == '}') {
      tokens = 0;
      statementLine = line;
      statementColumn = column + 1;
    }
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
}

void checkInput(std::string_view source, const std::string& fileName) {
  if (source.size() > kMaxInputBytes) {
    throw RewriteError(fileName, 1, 1,
                       "input is " + std::to_string(source.size()) + " bytes, over the " +
                           std::to_string(kMaxInputBytes >> 20) + " MiB limit");
  }
  if (const auto fault = data::findTextFault(source)) {
    throw RewriteError(fileName, fault->line, fault->column, "not OpenCL text: " + fault->what);
  }
  if (source.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos) {
    throw RewriteError(fileName, 1, 1, "empty input: no OpenCL code to normalize");
  }
  checkStructure(source, fileName);
}

int countLines(std::string_view text) {
  return text.empty() ? 0 : static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
}

/// Result of stages 2 to 7 on one text, and the kernels the rename pass found.
struct Normalized {
  std::string text;
  std::vector<KernelName> kernels;
  std::vector<std::string> undeclared;
  std::vector<std::pair<std::string, std::string>> renames;
};

Normalized runPipeline(std::string_view source, const std::string& fileName,
                       internal::ClangResources& resources,
                       const data::SourceOptions& options = {}) {
  checkInput(source, fileName);
  // The file's own typedefs of names the shim defines win (their uses read the file's type).
  data::SourceOptions withTypedefs = options;
  for (std::string& define : internal::typedefOverrides(source)) {
    withTypedefs.defines.push_back(std::move(define));
  }
  internal::PreprocessedText preprocessed =
      internal::runPreprocessorPass(source, fileName, resources, withTypedefs);
  preprocessed.text = internal::dropSelfTypedefs(std::move(preprocessed.text));
  checkStructure(preprocessed.text, fileName, &preprocessed.originalLine);  // macros expanded
  RenamedText renamed = internal::runRenamePass(preprocessed.text, fileName, resources);
  if (renamed.functionDefinitions == 0) {
    if (renamed.firstError) {
      const internal::ClangError& error = *renamed.firstError;
      const size_t index = static_cast<size_t>(std::max(error.line, 1) - 1);
      const int line =
          index < preprocessed.originalLine.size() ? preprocessed.originalLine[index] : error.line;
      throw RewriteError(fileName, line, error.column,
                         error.message + " (no function definition left to normalize)");
    }
    throw RewriteError(fileName, 1, 1, "no function definition to normalize");
  }
  std::string text = formatSource(stripAttributes(renamed.text));
  if (countLines(text) < 3) {
    throw RewriteError(fileName, 1, 1, "no code: the normalized text has fewer than 3 lines");
  }
  return {prototypeOnOneLine(text), std::move(renamed.kernels), std::move(renamed.undeclared),
          std::move(renamed.renames)};
}

std::string kernelList(const std::vector<KernelName>& kernels) {
  std::string list;
  for (const KernelName& kernel : kernels) list += (list.empty() ? "" : ", ") + kernel.original;
  return list.empty() ? "none" : list;
}

}  // namespace

struct Normalizer::Impl {
  internal::ClangResources resources;
};

Normalizer::Normalizer() : impl_(std::make_unique<Impl>()) {}
Normalizer::~Normalizer() = default;

std::string Normalizer::normalize(std::string_view source, const std::string& fileName,
                                  const data::SourceOptions& options, RewriteNotes* notes) const {
  Normalized normalized = runPipeline(source, fileName, impl_->resources, options);
  if (notes != nullptr) {
    notes->undeclared = std::move(normalized.undeclared);
    notes->renames = std::move(normalized.renames);
  }
  return std::move(normalized.text);
}

std::vector<KernelName> Normalizer::kernels(std::string_view source, const std::string& fileName,
                                            const data::SourceOptions& options) const {
  checkInput(source, fileName);
  const auto preprocessed =
      internal::runPreprocessorPass(source, fileName, impl_->resources, options);
  return internal::runRenamePass(preprocessed.text, fileName, impl_->resources).kernels;
}

std::string Normalizer::extractKernel(std::string_view source, const std::string& fileName,
                                      const std::string& kernel, KernelName* chosenName,
                                      const data::SourceOptions& options,
                                      RewriteNotes* notes) const {
  const Normalized whole = runPipeline(source, fileName, impl_->resources, options);
  if (notes != nullptr) {
    notes->undeclared = whole.undeclared;
    notes->renames = whole.renames;
  }
  const KernelName* chosen = nullptr;
  if (kernel.empty()) {
    if (whole.kernels.size() != 1) {
      throw RewriteError(
          fileName, 1, 1,
          std::to_string(whole.kernels.size()) +
              " kernels in the file, choose one with --kernel: " + kernelList(whole.kernels));
    }
    chosen = &whole.kernels.front();
  } else {
    for (const KernelName& candidate : whole.kernels) {
      if (candidate.original == kernel) chosen = &candidate;
    }
    if (!chosen) {
      throw RewriteError(fileName, 1, 1,
                         "no kernel named '" + kernel + "'; kernels: " + kernelList(whole.kernels));
    }
  }
  if (chosenName) *chosenName = *chosen;
  const auto definition = internal::cutFunctionDefinition(whole.text, chosen->normalized);
  if (!definition) {
    throw RewriteError(
        fileName, 1, 1,
        "cannot find the definition of kernel '" + chosen->original + "' in the normalized text");
  }
  // What the kernel needs of the file (its typedefs, structs, constant tables) comes with it, on
  // lines of its own before the kernel, so that the extract is valid OpenCL by itself.
  return runPipeline(internal::neededDeclarations(whole.text, *definition) + *definition, fileName,
                     impl_->resources)
      .text;
}

std::string Normalizer::preprocess(std::string_view source, const std::string& fileName,
                                   const data::SourceOptions& options) const {
  checkInput(source, fileName);
  return internal::runPreprocessorPass(source, fileName, impl_->resources, options).text;
}

std::string Normalizer::renameIdentifiers(std::string_view source,
                                          const std::string& fileName) const {
  checkInput(source, fileName);
  return internal::runRenamePass(source, fileName, impl_->resources).text;
}

}  // namespace deeptune::rewriter
