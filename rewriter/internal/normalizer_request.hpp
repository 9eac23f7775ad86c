// Internal: one call of a Normalizer method, as it travels to the bounded worker.
#pragma once

#include <string>
#include <string_view>

#include "data/source_options.hpp"

namespace deeptune::rewriter::internal {

enum class RequestKind : char {
  Normalize = 'N',
  Kernels = 'K',
  Extract = 'X',
  ExtractAll = 'A',
  Coarsen = 'C',
  Preprocess = 'P',
  Rename = 'R'
};

/// The method and its arguments (kernel, factor and stride only where the method takes them).
struct Request {
  RequestKind kind = RequestKind::Normalize;
  std::string source;
  std::string fileName;
  data::SourceOptions options;
  std::string kernel;
  int factor = 1;
  bool stride = false;
};

Request requestOf(RequestKind kind, std::string_view source, const std::string& fileName,
                  const data::SourceOptions& options = {});

/// Length-prefixed fields (bounded_work.hpp's putField), the kind first.
std::string encodeRequest(const Request& request);
/// The inverse of encodeRequest; throws std::exception on a truncated or malformed request.
Request decodeRequest(const std::string& encoded);

}  // namespace deeptune::rewriter::internal
