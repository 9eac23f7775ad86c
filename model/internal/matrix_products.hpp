// Internal: out += in w for row blocks, the recurrent products of the hand-written LSTM paths.
#pragma once

#include <cstdint>

namespace deeptune::model::internal {

/// out[r][0..width) += sum over k of in[r][k] * w[k][0..width) for r < rows (all row-major;
/// width a multiple of 32), in the build for this CPU (AVX-512, AVX2 or baseline x86-64, chosen at
/// the first call). Each output accumulates k in ascending order; the AVX-512 and AVX2 builds
/// with one fused multiply-add each, so those two give equal results.
void addRowProducts(float* out, const float* in, const float* w, int64_t rows, int64_t inner,
                    int64_t width);

/// The same for rows that are not contiguous: row r of `out` starts at out + r * outStride, of
/// `in` at in + r * inStride (floats; the fast LSTM's threads take every n-th row).
void addStridedRowProducts(float* out, int64_t outStride, const float* in, int64_t inStride,
                           const float* w, int64_t rows, int64_t inner, int64_t width);

}  // namespace deeptune::model::internal
