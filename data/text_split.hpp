// Splitting a text at a separator character: the one split the modules and the CLI share.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace deeptune::data {

/// What splitText does with empty pieces ("a,,b" has one, "a," one at the end).
enum class EmptyPieces { kKeep, kDrop };

/// The pieces of `text` between `separator`s, in order: "a,,b" gives "a", "", "b" (kKeep) or
/// "a", "b" (kDrop); an empty text gives no pieces.
std::vector<std::string> splitText(std::string_view text, char separator,
                                   EmptyPieces empty = EmptyPieces::kKeep);

}  // namespace deeptune::data
