// SourceRewriter: the rewriter's normalization as a public API (whole files, one kernel, names).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "deeptune/data/source_options.hpp"

namespace deeptune::api {

/// What a normalization gives: the text, and the names the source uses but declares nowhere.
struct Rewritten {
  std::string text;    ///< the normalized source (no trailing newline)
  std::string kernel;  ///< the kernel extracted, by its name in the input; empty for a whole file
  std::vector<std::string> undeclared;  ///< a host -D or header not given, sorted
};

/// A kernel coarsened by a factor and how the host must launch it.
struct Coarsened {
  std::string source;  ///< the whole (preprocessed) file with the kernel coarsened; OpenCL C 1.2
  std::string kernel;  ///< its name
  int factor = 1;
  bool stride = false;  ///< items a local size apart (else consecutive items)
  /// The kernel reads get_local_id, get_local_size, get_group_id or get_num_groups: the local
  /// size of dimension 0 must be divided by the factor too.
  bool localSizeDivided = false;
  std::string hostRule;  ///< the launch rule in words
};

/// Normalizes OpenCL sources as `deeptune rewrite` does and as every model reads them (SPEC.md
/// section 1), in a bounded worker process (rewriter/README.md). Not thread-safe: one
/// SourceRewriter per thread. Errors are rewriter::RewriteError (file:line:col: what), and
/// data::DataError for invalid -D/-I options.
class SourceRewriter {
 public:
  SourceRewriter();
  ~SourceRewriter();
  SourceRewriter(SourceRewriter&&) noexcept;
  SourceRewriter& operator=(SourceRewriter&&) noexcept;

  /// The whole file normalized; `fileName` names it in errors and is the base of its relative
  /// #includes; `options` are the host's -D/-I.
  Rewritten normalize(const std::string& source, const std::string& fileName,
                      const data::SourceOptions& options = {});
  /// One kernel cut out and normalized alone, as the models read it (empty `kernel`: the only
  /// one; otherwise an error lists the file's kernels).
  Rewritten extractKernel(const std::string& source, const std::string& fileName,
                          const std::string& kernel, const data::SourceOptions& options = {});
  /// The kernels the file defines, by their names in the input, in source order.
  std::vector<std::string> kernelNames(const std::string& source, const std::string& fileName,
                                       const data::SourceOptions& options = {});
  /// Thread coarsening of `kernel` (empty: the only one) by `factor` (2 to 1024), as `deeptune
  /// coarsen` does: each work-item does `factor` items of dimension 0. Kernels it cannot coarsen
  /// safely are refused (RewriteError) with the line and the reason.
  Coarsened coarsen(const std::string& source, const std::string& fileName,
                    const std::string& kernel, int factor, bool stride = false,
                    const data::SourceOptions& options = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace deeptune::api
