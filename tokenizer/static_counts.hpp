// Grewe et al.'s static counts of a kernel, estimated from its normalized OpenCL source's tokens.
#pragma once

#include <string_view>
#include <vector>

namespace deeptune::tokenizer {

/// The six static counts of the paper's data (`comp` ... `atomic`), for kernels that come without
/// them (a measure CSV). The paper's counts come from LLVM IR; these come from the tokens of the
/// source (baselines/README.md, "Static counts from source"), so they are estimates on another
/// scale: what the Grewe tree reads is their ratios.
struct StaticCounts {
  int comp = 0;       ///< arithmetic, bitwise and math-builtin operations
  int rational = 0;   ///< comparisons and logical operators
  int mem = 0;        ///< accesses to __global / __constant memory (subscripts, vload/vstore)
  int localmem = 0;   ///< accesses to __local memory
  int coalesced = 0;  ///< global accesses indexed by dimension 0's id without a multiplication
  int atomic = 0;     ///< atomic_* / atom_* calls
};

/// Counts of `source` (one or more kernels with their helpers; comments and strings ignored).
/// Never throws; linear in the size of the source.
StaticCounts staticCounts(std::string_view source);

/// The counts as the predictors read them: comp, rational, mem, localmem, coalesced, atomic.
std::vector<float> staticCountValues(const StaticCounts& counts);

}  // namespace deeptune::tokenizer
