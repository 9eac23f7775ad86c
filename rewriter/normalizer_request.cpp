// Encodes and decodes the Normalizer's calls for the bounded worker.
#include "rewriter/internal/normalizer_request.hpp"

#include <vector>

#include "rewriter/internal/bounded_work.hpp"

namespace deeptune::rewriter::internal {
namespace {

void putList(std::string& out, const std::vector<std::string>& items) {
  putField(out, std::to_string(items.size()));
  for (const std::string& item : items) putField(out, item);
}

std::vector<std::string> takeList(const std::string& in, size_t& offset) {
  std::vector<std::string> items(std::stoul(takeField(in, offset)));
  for (std::string& item : items) item = takeField(in, offset);
  return items;
}

}  // namespace

Request requestOf(RequestKind kind, std::string_view source, const std::string& fileName,
                  const data::SourceOptions& options) {
  Request request;
  request.kind = kind;
  request.source = std::string(source);
  request.fileName = fileName;
  request.options = options;
  return request;
}

std::string encodeRequest(const Request& request) {
  std::string out(1, static_cast<char>(request.kind));
  putField(out, request.source);
  putField(out, request.fileName);
  putList(out, request.options.defines);
  putList(out, request.options.includeDirs);
  putField(out, request.kernel);
  putField(out, std::to_string(request.factor));
  putField(out, request.stride ? "1" : "0");
  return out;
}

Request decodeRequest(const std::string& encoded) {
  Request request;
  request.kind = static_cast<RequestKind>(encoded.at(0));
  size_t offset = 1;
  request.source = takeField(encoded, offset);
  request.fileName = takeField(encoded, offset);
  request.options.defines = takeList(encoded, offset);
  request.options.includeDirs = takeList(encoded, offset);
  request.kernel = takeField(encoded, offset);
  request.factor = std::stoi(takeField(encoded, offset));
  request.stride = takeField(encoded, offset) == "1";
  return request;
}

}  // namespace deeptune::rewriter::internal
