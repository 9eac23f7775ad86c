// The normalizer pipeline of SPEC.md §1: input checks, then stages 2 to 7, and kernel extraction.
#include "rewriter/normalizer.hpp"

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>
#include <stdexcept>

#include "data/text_check.hpp"
#include "rewriter/internal/bounded_work.hpp"
#include "rewriter/internal/normalizer_request.hpp"
#include "rewriter/internal/passes.hpp"
#include "rewriter/rewrite_error.hpp"

namespace deeptune::rewriter {
namespace {

using internal::RenamedText;

/// Rejects text nested or chained beyond kMaxNesting / kMaxStatementTokens, naming where. Tokens
/// are counted roughly (a word or number is one, any other character one); comments and
/// literals are skipped. `lineOf` maps a line of `text` to the user's line (preprocessed text).
/// Where the longest statement starts and its tokens: the place to blame when the work is too much.
struct LongestStatement {
  int line = 1;
  int column = 1;
  int tokens = 0;
};

LongestStatement checkStructure(std::string_view text, const std::string& fileName,
                                const std::vector<int>* lineOf = nullptr) {
  int line = 1, column = 1, depth = 0, tokens = 0, statementLine = 1, statementColumn = 1;
  LongestStatement longest;
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
    if (tokens > longest.tokens) longest = {statementLine, statementColumn, tokens};
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
  return longest;
}

LongestStatement checkInput(std::string_view source, const std::string& fileName) {
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
  return checkStructure(source, fileName);
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

/// Stages 2 to 7. With `mustCompile`, an error that is not a name declared nowhere (or a call of
/// a helper the kernel lacks) stops the rewrite: the source does not compile. Our own extract of
/// a file that passed is normalized without it (its errors would be what the cut left out).
Normalized runPipeline(std::string_view source, const std::string& fileName,
                       internal::ClangResources& resources, const data::SourceOptions& options,
                       bool mustCompile) {
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
  // An error's line in the preprocessed text, as a line of the source.
  const auto sourceLine = [&](const internal::ClangError& error) {
    const size_t index = static_cast<size_t>(std::max(error.line, 1) - 1);
    return index < preprocessed.originalLine.size() ? preprocessed.originalLine[index] : error.line;
  };
  if (renamed.functionDefinitions == 0) {
    if (renamed.firstError) {
      const internal::ClangError& error = *renamed.firstError;
      throw RewriteError(fileName, sourceLine(error), error.column,
                         error.message + " (no function definition left to normalize)");
    }
    throw RewriteError(fileName, 1, 1, "no function definition to normalize");
  }
  if (mustCompile && renamed.firstIntolerableError) {
    const internal::ClangError& error = *renamed.firstIntolerableError;
    throw RewriteError(fileName, sourceLine(error), error.column,
                       error.message + " (the kernel does not compile)");
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

/// Serialized forms of what a bounded child sends back.
void putNames(std::string& out, const std::vector<KernelName>& kernels) {
  internal::putField(out, std::to_string(kernels.size()));
  for (const KernelName& kernel : kernels) {
    internal::putField(out, kernel.original);
    internal::putField(out, kernel.normalized);
  }
}

std::vector<KernelName> takeNames(const std::string& in, size_t& offset) {
  std::vector<KernelName> kernels(std::stoul(internal::takeField(in, offset)));
  for (KernelName& kernel : kernels) {
    kernel.original = internal::takeField(in, offset);
    kernel.normalized = internal::takeField(in, offset);
  }
  return kernels;
}

void putNotes(std::string& out, const Normalized& normalized) {
  internal::putField(out, std::to_string(normalized.undeclared.size()));
  for (const std::string& name : normalized.undeclared) internal::putField(out, name);
  internal::putField(out, std::to_string(normalized.renames.size()));
  for (const auto& [from, to] : normalized.renames) {
    internal::putField(out, from);
    internal::putField(out, to);
  }
}

RewriteNotes takeNotes(const std::string& in, size_t& offset) {
  RewriteNotes notes;
  notes.undeclared.resize(std::stoul(internal::takeField(in, offset)));
  for (std::string& name : notes.undeclared) name = internal::takeField(in, offset);
  notes.renames.resize(std::stoul(internal::takeField(in, offset)));
  for (auto& [from, to] : notes.renames) {
    from = internal::takeField(in, offset);
    to = internal::takeField(in, offset);
  }
  return notes;
}

/// Parses `answer` with `read`; an answer it cannot read is the caller's error at `fileName`.
template <typename Read>
auto readAnswer(const std::string& answer, const std::string& fileName, Read read) {
  size_t offset = 0;
  try {
    return read(answer, offset);
  } catch (const std::exception&) {
    throw RewriteError(fileName, 1, 1, "the normalizer gave an answer it cannot read");
  }
}

/// Whether this process may run on more than one CPU (its affinity mask).
bool severalCpus() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  return sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 1;
}

/// What a worker started ahead of its first request normalizes first (Normalizer::prepare).
constexpr const char* kWarmUpKernel = "__kernel void A(__global int* a) {\n  a[0] = 1;\n}\n";

std::string serveNormalize(const internal::Request& r, internal::ClangResources& resources) {
  const Normalized normalized = runPipeline(r.source, r.fileName, resources, r.options, true);
  std::string out;
  internal::putField(out, normalized.text);
  putNotes(out, normalized);
  return out;
}

std::string serveKernels(const internal::Request& r, internal::ClangResources& resources) {
  const auto preprocessed =
      internal::runPreprocessorPass(r.source, r.fileName, resources, r.options);
  std::string out;
  putNames(out, internal::runRenamePass(preprocessed.text, r.fileName, resources).kernels);
  return out;
}

/// The extract of `chosen` from the whole normalized file: its definition cut out, preceded by
/// what it needs of the file (typedefs, structs, constant tables) on lines of their own, so that
/// the extract is valid OpenCL by itself, and normalized again on its own.
std::string extractFrom(const Normalized& whole, const KernelName& chosen,
                        const std::string& fileName, internal::ClangResources& resources) {
  const auto definition = internal::cutFunctionDefinition(whole.text, chosen.normalized);
  if (!definition) {
    throw RewriteError(
        fileName, 1, 1,
        "cannot find the definition of kernel '" + chosen.original + "' in the normalized text");
  }
  // An extract that is the whole normalized file (one kernel, nothing else) is already
  // normalized: running the pipeline on it again would only repeat its cost.
  std::string extract = internal::neededDeclarations(whole.text, *definition) + *definition;
  if (extract != whole.text) extract = runPipeline(extract, fileName, resources, {}, false).text;
  return extract;
}

std::string serveExtract(const internal::Request& r, internal::ClangResources& resources) {
  const Normalized whole = runPipeline(r.source, r.fileName, resources, r.options, true);
  const KernelName* chosen = nullptr;
  if (r.kernel.empty()) {
    if (whole.kernels.size() != 1) {
      throw RewriteError(
          r.fileName, 1, 1,
          std::to_string(whole.kernels.size()) +
              " kernels in the file; name the one to use: " + kernelList(whole.kernels));
    }
    chosen = &whole.kernels.front();
  } else {
    for (const KernelName& candidate : whole.kernels) {
      if (candidate.original == r.kernel) chosen = &candidate;
    }
    if (!chosen) {
      throw RewriteError(
          r.fileName, 1, 1,
          "no kernel named '" + r.kernel + "'; kernels: " + kernelList(whole.kernels));
    }
  }
  std::string out;
  internal::putField(out, extractFrom(whole, *chosen, r.fileName, resources));
  putNames(out, {*chosen});
  putNotes(out, whole);
  return out;
}

std::string serveExtractAll(const internal::Request& r, internal::ClangResources& resources) {
  const Normalized whole = runPipeline(r.source, r.fileName, resources, r.options, true);
  std::string out;
  internal::putField(out, std::to_string(whole.kernels.size()));
  for (const KernelName& kernel : whole.kernels) {
    internal::putField(out, extractFrom(whole, kernel, r.fileName, resources));
  }
  putNames(out, whole.kernels);
  putNotes(out, whole);
  return out;
}

std::string serveCoarsen(const internal::Request& r, internal::ClangResources& resources) {
  const auto preprocessed =
      internal::runPreprocessorPass(r.source, r.fileName, resources, r.options);
  std::string pragmas;  // FP_CONTRACT and EXTENSION change what the kernel computes
  static const std::regex pragmaLine(R"((^|\n)[ \t]*#[ \t]*pragma[ \t]+OPENCL\b[^\n]*)");
  for (auto it = std::sregex_iterator(r.source.begin(), r.source.end(), pragmaLine);
       it != std::sregex_iterator(); ++it) {
    std::string line = it->str();
    pragmas += line.substr(line.find('#')) + "\n";
  }
  const internal::CoarsenedText coarsened = internal::runCoarsenPass(
      preprocessed, pragmas, r.fileName, resources, r.kernel, r.factor, r.stride);
  std::string out;
  internal::putField(out, coarsened.text);
  internal::putField(out, coarsened.kernel);
  internal::putField(out, coarsened.usesGroupShape ? "1" : "0");
  return out;
}

/// What the worker does with a request: the Normalizer method's stages, its answer serialized.
std::string serve(const internal::Request& r, internal::ClangResources& resources) {
  switch (r.kind) {
    case internal::RequestKind::Normalize:
      return serveNormalize(r, resources);
    case internal::RequestKind::Kernels:
      return serveKernels(r, resources);
    case internal::RequestKind::Extract:
      return serveExtract(r, resources);
    case internal::RequestKind::ExtractAll:
      return serveExtractAll(r, resources);
    case internal::RequestKind::Coarsen:
      return serveCoarsen(r, resources);
    case internal::RequestKind::Preprocess:
      return internal::runPreprocessorPass(r.source, r.fileName, resources, r.options).text;
    case internal::RequestKind::Rename:
      return internal::runRenamePass(r.source, r.fileName, resources).text;
  }
  throw RewriteError("unknown normalizer request");
}

}  // namespace

struct Normalizer::Impl {
  internal::ClangResources resources;
  internal::BoundedWorker worker{
      [this](const std::string& request) {
        return serve(internal::decodeRequest(request), resources);
      },
      [this] { runPipeline(kWarmUpKernel, "deeptune-warm-up.cl", resources, {}, true); }};

  /// Runs `request` in the bounded worker (internal/bounded_work.hpp), after the input's cheap
  /// checks here, and returns its answer. The first call first finds (or builds) the shim's PCH
  /// and maps it in this process, once for all workers.
  std::string bounded(const internal::Request& request) {
    const LongestStatement longest = checkInput(request.source, request.fileName);
    // Every input runs in the worker, the small ones too: Clang 15 itself crashes on some
    // malformed input (tests/test_rewrite_errors.cpp, "Clang's own crash"), and that must cost
    // the caller an error, not its process.
    resources.preloadShimPch();  // once: it returns at once when the PCH is mapped
    // A long statement is what makes Clang and clang-format work hard; else it is the file.
    const bool blameStatement = longest.tokens >= kMaxStatementTokens / 8;
    return worker.run(internal::encodeRequest(request), request.fileName,
                      blameStatement ? longest.line : 1, blameStatement ? longest.column : 1);
  }
};

Normalizer::Normalizer() : impl_(std::make_unique<Impl>()) {}

void Normalizer::prepare() {
  if (!severalCpus()) return;  // nothing to overlap with: the first call does it all
  impl_->resources.preloadShimPch();
  impl_->worker.prestart();
}
Normalizer::~Normalizer() = default;

std::string Normalizer::normalize(std::string_view source, const std::string& fileName,
                                  const data::SourceOptions& options, RewriteNotes* notes) const {
  const std::string answer = impl_->bounded(
      internal::requestOf(internal::RequestKind::Normalize, source, fileName, options));
  return readAnswer(answer, fileName, [&](const std::string& in, size_t& offset) {
    std::string text = internal::takeField(in, offset);
    RewriteNotes found = takeNotes(in, offset);
    if (notes != nullptr) *notes = std::move(found);
    return text;
  });
}

std::vector<KernelName> Normalizer::kernels(std::string_view source, const std::string& fileName,
                                            const data::SourceOptions& options) const {
  const std::string answer = impl_->bounded(
      internal::requestOf(internal::RequestKind::Kernels, source, fileName, options));
  return readAnswer(answer, fileName, takeNames);
}

std::string Normalizer::extractKernel(std::string_view source, const std::string& fileName,
                                      const std::string& kernel, KernelName* chosenName,
                                      const data::SourceOptions& options,
                                      RewriteNotes* notes) const {
  internal::Request request =
      internal::requestOf(internal::RequestKind::Extract, source, fileName, options);
  request.kernel = kernel;
  const std::string answer = impl_->bounded(request);
  return readAnswer(answer, fileName, [&](const std::string& in, size_t& offset) {
    std::string text = internal::takeField(in, offset);
    const std::vector<KernelName> chosen = takeNames(in, offset);
    RewriteNotes found = takeNotes(in, offset);
    if (chosen.size() != 1) throw RewriteError("no kernel");
    if (chosenName != nullptr) *chosenName = chosen.front();
    if (notes != nullptr) *notes = std::move(found);
    return text;
  });
}

std::vector<ExtractedKernel> Normalizer::extractKernels(std::string_view source,
                                                        const std::string& fileName,
                                                        const data::SourceOptions& options,
                                                        RewriteNotes* notes) const {
  const std::string answer = impl_->bounded(
      internal::requestOf(internal::RequestKind::ExtractAll, source, fileName, options));
  return readAnswer(answer, fileName, [&](const std::string& in, size_t& offset) {
    std::vector<ExtractedKernel> kernels(std::stoul(internal::takeField(in, offset)));
    for (ExtractedKernel& kernel : kernels) kernel.text = internal::takeField(in, offset);
    const std::vector<KernelName> names = takeNames(in, offset);
    if (names.size() != kernels.size()) throw RewriteError("kernel count");
    for (size_t i = 0; i < names.size(); ++i) kernels[i].name = names[i];
    RewriteNotes found = takeNotes(in, offset);
    if (notes != nullptr) *notes = std::move(found);
    return kernels;
  });
}

std::vector<ExtractedKernel> Normalizer::extractEveryKernel(std::string_view source,
                                                            const std::string& fileName,
                                                            const data::SourceOptions& options,
                                                            RewriteNotes* notes) const {
  std::vector<ExtractedKernel> kernels = extractKernels(source, fileName, options, notes);
  if (kernels.empty()) throw RewriteError(fileName, 1, 1, "no kernel in the file");
  return kernels;
}

std::string CoarsenedKernel::hostRule() const {
  const std::string cf = std::to_string(factor);
  return "global size of dimension 0 divided by " + cf + "; local size of dimension 0 " +
         (localSizeDivided || stride ? "divided by " + cf + " (it must divide it)"
                                     : "kept, or divided by " + cf);
}

CoarsenedKernel Normalizer::coarsen(std::string_view source, const std::string& fileName,
                                    const std::string& kernel, int factor, bool stride,
                                    const data::SourceOptions& options) const {
  if (factor < 2 || factor > 1024) {
    throw RewriteError(fileName, 1, 1,
                       "coarsening factor " + std::to_string(factor) + ": expected 2 to 1024");
  }
  internal::Request request =
      internal::requestOf(internal::RequestKind::Coarsen, source, fileName, options);
  request.kernel = kernel;
  request.factor = factor;
  request.stride = stride;
  const std::string answer = impl_->bounded(request);
  return readAnswer(answer, fileName, [&](const std::string& in, size_t& offset) {
    CoarsenedKernel result;
    result.source = internal::takeField(in, offset);
    result.kernel = internal::takeField(in, offset);
    result.localSizeDivided = internal::takeField(in, offset) == "1";
    result.factor = factor;
    result.stride = stride;
    return result;
  });
}

std::string Normalizer::preprocess(std::string_view source, const std::string& fileName,
                                   const data::SourceOptions& options) const {
  return impl_->bounded(
      internal::requestOf(internal::RequestKind::Preprocess, source, fileName, options));
}

std::string Normalizer::renameIdentifiers(std::string_view source,
                                          const std::string& fileName) const {
  return impl_->bounded(internal::requestOf(internal::RequestKind::Rename, source, fileName));
}

}  // namespace deeptune::rewriter
