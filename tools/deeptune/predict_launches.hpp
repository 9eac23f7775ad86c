// deeptune predict --launches: the device of every launch of a CSV, each source rewritten once.
#pragma once

#include <string>

namespace deeptune::cli {

/// Decides every row of the launches CSV `path` (columns file, dsize or transfer, wgsize; optional
/// kernel and build_options; a relative file is found from the CSV's folder) with the devmap
/// model `modelPath`, printing one CSV row (or, with `json`, one JSON object) per launch in file
/// order. A row that fails gets its error line (file:line:col) and the others still run. Returns
/// the exit code: 0, or 2 when any row failed (after a summary line).
int predictLaunches(const std::string& path, const std::string& modelPath, bool json);

}  // namespace deeptune::cli
