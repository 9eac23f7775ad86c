// Normalizer: the OpenCL source normalizer of SPEC.md §1 (preprocess, rename, strip, format).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/source_options.hpp"

namespace deeptune::rewriter {

/// Inputs larger than this are rejected (a kernel file is kilobytes; this guards memory and time).
constexpr std::size_t kMaxInputBytes = 4u << 20;
/// Deeper nesting of ( [ { is rejected (Clang's own bracket limit; deep input overflowed stacks).
constexpr int kMaxNesting = 256;
/// Longer statements are rejected, before and after preprocessing: Clang and clang-format work
/// superlinearly on long expression chains (the paper's longest statement has 4,253 tokens).
constexpr int kMaxStatementTokens = 8192;

/// A macro expansion estimated to produce more tokens than this is rejected before Clang performs
/// it, as are files whose expansions add up to more than kMaxPreprocessedTokens: exponential
/// macros would otherwise take unbounded time and memory.
constexpr std::size_t kMaxExpansionTokens = std::size_t{1} << 20;
constexpr std::size_t kMaxPreprocessedTokens = std::size_t{1} << 22;

/// A kernel defined in a file: its name in the input and in the whole-file normalized text.
struct KernelName {
  std::string original;
  std::string normalized;
};

/// One kernel of a file, extracted as Normalizer::extractKernel does.
struct ExtractedKernel {
  KernelName name;
  std::string text;
};

/// A coarsened kernel and how the host must launch it.
struct CoarsenedKernel {
  std::string source;  ///< the whole (preprocessed) file, the kernel coarsened; OpenCL C 1.2
  std::string kernel;  ///< its name
  int factor = 1;
  bool stride = false;
  /// The kernel reads get_local_id, get_local_size, get_group_id or get_num_groups: the local
  /// size must be divided by the factor too; otherwise it may also be kept.
  bool localSizeDivided = false;
  /// The host's launch rule in words (global size of dimension 0 divided by the factor, ...).
  std::string hostRule() const;
};

/// What a normalization noticed besides its text.
struct RewriteNotes {
  /// Names the file uses but declares nowhere (a host's -D or a header not given), sorted; they
  /// are left as they are, and everything declared is renamed even in statements around them.
  std::vector<std::string> undeclared;
  /// Every function and variable the file declares, with its new name, sorted by old name.
  std::vector<std::pair<std::string, std::string>> renames;
};

/// Normalizes OpenCL C 1.2 sources with Clang, each call in a forked worker child (kept while
/// calls keep coming) bounded in memory and CPU time (rewriter/README.md, "Work is bounded").
/// Thread-compatible: use one instance per thread (calls on one instance are serialized). The
/// shim's precompiled header is built on first use and cached on disk (see rewriter/README.md).
/// Every method throws RewriteError for input it cannot normalize.
class Normalizer {
 public:
  Normalizer();
  ~Normalizer();
  /// Gets ready for the first call now: finds (or builds) the shim's PCH and starts the worker,
  /// which warms up (a tiny kernel's parse) on another CPU while the caller does other work, such
  /// as loading a model. Does nothing where the process may use one CPU only (the two would just
  /// take turns). Optional: the first call does what is still missing.
  void prepare();
  Normalizer(const Normalizer&) = delete;
  Normalizer& operator=(const Normalizer&) = delete;

  /// The full pipeline on a whole file. `fileName` names the source in errors and is the base
  /// for relative #include lookups; `options` are the host's -D and -I (its -I folders may be
  /// included from, besides the file's own folder). The result has no trailing newline.
  std::string normalize(std::string_view source, const std::string& fileName,
                        const data::SourceOptions& options = {},
                        RewriteNotes* notes = nullptr) const;

  /// Normalizes the file, cuts out one kernel and normalizes that alone (the paper's extracts),
  /// preceded by the file-level typedefs, struct/union/enum definitions and variables (e.g.
  /// `__constant` tables) it uses, each on its own line; called helper functions are not copied.
  /// An empty `kernel` selects the file's only kernel; otherwise an error lists the kernels.
  /// If `chosen` is given, it receives the extracted kernel's names.
  /// `notes` are the whole file's.
  std::string extractKernel(std::string_view source, const std::string& fileName,
                            const std::string& kernel, KernelName* chosen = nullptr,
                            const data::SourceOptions& options = {},
                            RewriteNotes* notes = nullptr) const;

  /// Every kernel of the file extracted (as extractKernel does), in source order, from one
  /// normalization of the whole file; a file without a kernel gives none. `notes` are the file's.
  std::vector<ExtractedKernel> extractKernels(std::string_view source, const std::string& fileName,
                                              const data::SourceOptions& options = {},
                                              RewriteNotes* notes = nullptr) const;
  /// extractKernels() for a caller that answers per kernel: a file without a kernel is a
  /// RewriteError "FILE:1:1: no kernel in the file".
  std::vector<ExtractedKernel> extractEveryKernel(std::string_view source,
                                                  const std::string& fileName,
                                                  const data::SourceOptions& options = {},
                                                  RewriteNotes* notes = nullptr) const;

  /// The kernels the file defines, in order.
  std::vector<KernelName> kernels(std::string_view source, const std::string& fileName,
                                  const data::SourceOptions& options = {}) const;

  /// Stage 2 alone: preprocessed text with '#' lines dropped and 2016 builtin spellings.
  std::string preprocess(std::string_view source, const std::string& fileName,
                         const data::SourceOptions& options = {}) const;

  /// Thread coarsening (SPEC §1) of `kernel` (empty: the file's only kernel) by `factor` (2 to
  /// 1024): the preprocessed file with that kernel's body replicated, each work-item doing
  /// `factor` consecutive original work-items of dimension 0 (or, with `stride`, items a local
  /// size apart). Kernels it cannot coarsen safely are refused with the line and the reason.
  CoarsenedKernel coarsen(std::string_view source, const std::string& fileName,
                          const std::string& kernel, int factor, bool stride = false,
                          const data::SourceOptions& options = {}) const;

  /// Stage 3 alone: identifiers renamed, layout untouched (input is not preprocessed again).
  std::string renameIdentifiers(std::string_view source, const std::string& fileName) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Stage 4: removes every `__attribute__((...))` (balanced parentheses).
std::string stripAttributes(std::string_view source);

/// Stage 5: libFormat with the paper's style, then trims surrounding whitespace. Over-long
/// lines are broken with their operands as atoms (rewriter/README.md, "Formatting long lines"):
/// the same text as formatSourceInOnePass, without its cost on long expressions.
std::string formatSource(std::string_view source);

/// Stage 5 as one libFormat pass over the whole text: what formatSource must equal (tests).
std::string formatSourceInOnePass(std::string_view source);

/// Stage 7: leading whitespace removed; in the declaration that owns the first '{' (the
/// prototype), whitespace runs up to that '{' become one space. Declarations before it (a whole
/// file's typedefs, an extract's needed declarations) keep their own lines.
std::string prototypeOnOneLine(std::string_view source);

}  // namespace deeptune::rewriter
