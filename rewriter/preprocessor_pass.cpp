// Stage 2 of the normalizer: Clang's preprocessor over the file with the shim PCH loaded.
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/PreprocessorOutputOptions.h>
#include <clang/Frontend/Utils.h>
#include <llvm/Support/raw_ostream.h>

#include "rewriter/internal/macro_budget.hpp"
#include "rewriter/internal/passes.hpp"
#include "rewriter/rewrite_error.hpp"

namespace deeptune::rewriter::internal {
namespace {

/// Prints the preprocessed main file, its macro expansions bounded by a MacroBudget. An AST
/// action (not a preprocessor-only one) so that the shim PCH is loaded instead of re-lexing the
/// libclc headers for every kernel.
class PrintWithPchAction : public clang::ASTFrontendAction {
 public:
  PrintWithPchAction(std::string& output, std::optional<MacroOverrun>& overrun)
      : output_(output), overrun_(overrun) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<clang::ASTConsumer>();
  }
  void ExecuteAction() override {
    clang::Preprocessor& preprocessor = getCompilerInstance().getPreprocessor();
    preprocessor.addPPCallbacks(std::make_unique<MacroBudget>(preprocessor, kMaxExpansionTokens,
                                                              kMaxPreprocessedTokens, overrun_));
    clang::PreprocessorOutputOptions options;
    options.ShowCPP = 1;
    options.ShowLineMarkers = 1;
    llvm::raw_string_ostream stream(output_);
    clang::DoPrintPreprocessedInput(preprocessor, &stream, options);
    stream.flush();
  }

 private:
  std::string& output_;
  std::optional<MacroOverrun>& overrun_;
};

/// Parses a line marker `# N "file" ...`; returns N if it names `fileName`, 0 otherwise.
int markerLineFor(std::string_view line, const std::string& fileName) {
  size_t pos = 1;
  while (pos < line.size() && line[pos] == ' ') ++pos;
  int number = 0;
  bool digits = false;
  while (pos < line.size() && line[pos] >= '0' && line[pos] <= '9') {
    number = number * 10 + (line[pos++] - '0');
    digits = true;
  }
  if (!digits) return 0;
  const std::string quoted = " \"" + fileName + "\"";
  return line.substr(pos, quoted.size()) == quoted ? number : 0;
}

/// Whether a fatal error is Clang failing to load the shim PCH (a truncated or corrupt cache file).
bool isShimPchFailure(const ClangError& error, const std::string& pch) {
  for (const char* sign : {"AST file", "PCH file", "precompiled header"}) {
    if (error.message.find(sign) != std::string::npos) return true;
  }
  return error.message.find(pch) != std::string::npos;
}

}  // namespace

PreprocessedText runPreprocessorPass(std::string_view source, const std::string& fileName,
                                     ClangResources& resources,
                                     const data::SourceOptions& options) {
  std::string printed;
  for (int attempt = 0;; ++attempt) {
    ErrorCollector errors;
    auto instance = makeCompilerInstance(source, fileName, errors, resources, options);
    printed.clear();
    std::optional<MacroOverrun> overrun;
    PrintWithPchAction action(printed, overrun);
    const bool ran = instance->ExecuteAction(action);
    if (overrun) throw RewriteError(fileName, overrun->line, overrun->column, overrun->message);
    if (!errors.firstError() && ran) break;
    const ClangError error =
        errors.firstError().value_or(ClangError{fileName, 1, 1, "cannot preprocess", true});
    const std::string pch = shimPchPath();
    if (isShimPchFailure(error, pch)) {
      // The cached PCH cannot be loaded: build it again, once; then say which file it is.
      if (attempt == 0) {
        instance.reset();
        resources.forgetLoadedFiles();
        rebuildShimPch();
        continue;
      }
      throw RewriteError(fileName, 1, 1,
                         "cannot load the OpenCL shim PCH " + pch + " (rebuilt): " + error.message);
    }
    // An error inside an included header is reported at the header's line.
    throw RewriteError(error.file.empty() ? fileName : error.file, error.line, error.column,
                       error.message);
  }
  // Keep every line that does not start with '#'; line markers tell the original line numbers.
  PreprocessedText result;
  int originalLine = 1;
  size_t start = 0;
  while (start < printed.size()) {
    size_t end = printed.find('\n', start);
    if (end == std::string::npos) end = printed.size();
    const std::string_view line(printed.data() + start, end - start);
    if (!line.empty() && line[0] == '#') {
      if (const int marked = markerLineFor(line, fileName)) {
        originalLine = marked;
      } else if (line.size() < 2 || line[1] != ' ') {
        ++originalLine;  // a #pragma kept by the preprocessor stands on its own source line
      }
    } else {
      result.text.append(line);
      result.text.push_back('\n');
      result.originalLine.push_back(originalLine++);
    }
    start = end + 1;
  }
  return result;
}

}  // namespace deeptune::rewriter::internal
