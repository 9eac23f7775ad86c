// SourceOptions: the host program's -D and -I build options for a kernel source.
#pragma once

#include <string>
#include <vector>

namespace deeptune::data {

/// What a host program passes to clBuildProgram that changes the text a kernel means: macro
/// definitions and include folders. The rewriter preprocesses with them, measure builds with them.
struct SourceOptions {
  std::vector<std::string> defines;      ///< "NAME" or "NAME=VALUE", in order
  std::vector<std::string> includeDirs;  ///< folders searched for #include, in order

  bool empty() const { return defines.empty() && includeDirs.empty(); }
  /// The options as OpenCL build flags: "-D NAME=VALUE -I DIR ..." ("" when empty).
  std::string buildFlags() const;
  bool operator==(const SourceOptions& other) const {
    return defines == other.defines && includeDirs == other.includeDirs;
  }
};

/// Validates command-line or API values: a define is an identifier, optionally `=VALUE`; an
/// include folder exists and is a folder. Neither may hold whitespace, quotes or control
/// characters (OpenCL splits build options at spaces). Throws DataError (no position: what() is
/// the message alone) naming the value and why.
SourceOptions makeSourceOptions(const std::vector<std::string>& defines,
                                const std::vector<std::string>& includeDirs);

/// The -D and -I options of an OpenCL build-options string ("-DN=8 -I inc -cl-fast-relaxed-math"
/// gives defines {"N=8"}, includeDirs {"inc"}); other options are ignored. Validated as
/// makeSourceOptions does.
SourceOptions sourceOptionsFromBuildFlags(const std::string& flags);

/// The OpenCL build flags for `options` of a kernel read from `sourceFile`: its own folder first
/// (so `#include "x.h"` beside it resolves, as the rewriter does; left out when its absolute path
/// holds a space or tab, which OpenCL would split), then the -I folders, all made absolute and
/// normal, then the -D definitions ("-D NAME=VALUE -I DIR ...", as SourceOptions::buildFlags).
std::string openClBuildFlags(const SourceOptions& options, const std::string& sourceFile);

}  // namespace deeptune::data
