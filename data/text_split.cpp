// Splitting a text at a separator character: the one split the modules and the CLI share.
#include "data/text_split.hpp"

namespace deeptune::data {

std::vector<std::string> splitText(std::string_view text, char separator, EmptyPieces empty) {
  std::vector<std::string> pieces;
  if (text.empty()) return pieces;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    const std::string_view piece =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!piece.empty() || empty == EmptyPieces::kKeep) pieces.emplace_back(piece);
    if (end == std::string_view::npos) return pieces;
    start = end + 1;
  }
}

}  // namespace deeptune::data
