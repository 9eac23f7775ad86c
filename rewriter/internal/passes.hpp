// Internal: the two Clang passes of the normalizer and the text steps between them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rewriter/internal/clang_session.hpp"
#include "rewriter/normalizer.hpp"

namespace deeptune::rewriter::internal {

/// Stage 2 output: the main file's preprocessed text without '#' lines, and for each of its
/// lines (0-based) the line of the original file it came from (1-based).
struct PreprocessedText {
  std::string text;
  std::vector<int> originalLine;
};

/// Runs the preprocessor with the shim. Throws RewriteError on any preprocessor error (a missing
/// include, #error, a malformed directive), at the file and line where it stands.
PreprocessedText runPreprocessorPass(std::string_view source, const std::string& fileName,
                                     ClangResources& resources,
                                     const data::SourceOptions& options = {});

/// Stage 3 output: the renamed text plus what the AST showed about the file.
struct RenamedText {
  std::string text;
  std::vector<KernelName> kernels;  ///< kernel definitions, in order
  int functionDefinitions = 0;      ///< function definitions in the main file
  int skippedLocations = 0;         ///< uses met inside macro expansions (left untouched)
  int recoveredOccurrences = 0;     ///< declared names renamed from tokens, not the AST
  std::optional<ClangError> firstError;
  std::optional<ClangError> firstIntolerableError;  ///< the source does not compile
  std::vector<std::string> undeclared;  ///< names used but declared nowhere (left as they are)
  std::vector<std::pair<std::string, std::string>> renames;  ///< declared name -> new name
};

/// Parses `source` (already preprocessed) and renames functions and variables.
RenamedText runRenamePass(std::string_view source, const std::string& fileName,
                          ClangResources& resources);

/// The thread-coarsening transform's output: the preprocessed file with one kernel coarsened.
struct CoarsenedText {
  std::string text;
  std::string kernel;           ///< the kernel coarsened (the only one when none was named)
  bool usesGroupShape = false;  ///< the kernel reads local ids, local sizes or group ids
};

/// Coarsens `kernel` (empty: the file's only kernel) of preprocessed text (SPEC §1): its body runs
/// `factor` times in a loop, dimension-0 work-item functions remapped (consecutive items, or
/// `stride`d by the local size). `pragmas` (the input's `#pragma OPENCL` lines, which preprocessing
/// drops) open the output. Throws RewriteError naming the line of what it refuses.
CoarsenedText runCoarsenPass(const PreprocessedText& preprocessed, const std::string& pragmas,
                             const std::string& fileName, ClangResources& resources,
                             const std::string& kernel, int factor, bool stride);

/// Definitions ("NAME=TYPE") that make the file's own `typedef TYPE NAME;` win over the shim's
/// macro of the same name (`#define DATA_TYPE float` would turn `typedef double DATA_TYPE;` into
/// `typedef double float;` and every use into float).
std::vector<std::string> typedefOverrides(std::string_view source);

/// `text` with every `typedef T T;` blanked (what an overridden typedef becomes once its name is
/// expanded): the uses already read T. Newlines are kept.
std::string dropSelfTypedefs(std::string text);

/// The file-level declarations of normalized `text` that `definition` uses (typedefs, struct,
/// union and enum definitions, variables such as `__constant` tables), directly or through each
/// other, in file order, one per line. Functions are never included.
std::string neededDeclarations(std::string_view text, std::string_view definition);

/// The definition of function `name` in formatted text (from its line to its closing brace).
std::optional<std::string> cutFunctionDefinition(std::string_view text, const std::string& name);

}  // namespace deeptune::rewriter::internal
