// Row-block matrix products for the hand-written LSTM paths, built for AVX-512, AVX2 and x86-64.
#include "model/internal/matrix_products.hpp"

#include "model/internal/vector_math.hpp"

namespace deeptune::model::internal {
namespace {

/// out[r][j..j+32) += sum over k of in[r][k] * w[k][j..j+32) for R rows from `r`, the
/// accumulators held in registers while k runs.
template <int R>
DEEPTUNE_VECTOR_INLINE void productBlock(float* out, const float* in, const float* w, int64_t r,
                                         int64_t j, int64_t inner, int64_t width) {
  Floats8 sum[R][4];
  for (int i = 0; i < R; ++i) {
    for (int v = 0; v < 4; ++v) sum[i][v] = load8(out + (r + i) * width + j + v * kLanes);
  }
  for (int64_t k = 0; k < inner; ++k) {
    const float* row = w + k * width + j;
    const Floats8 w0 = load8(row), w1 = load8(row + 8), w2 = load8(row + 16), w3 = load8(row + 24);
    for (int i = 0; i < R; ++i) {
      const float x = in[(r + i) * inner + k];  // a scalar operand: GCC broadcasts it once
      sum[i][0] += x * w0;
      sum[i][1] += x * w1;
      sum[i][2] += x * w2;
      sum[i][3] += x * w3;
    }
  }
  for (int i = 0; i < R; ++i) {
    for (int v = 0; v < 4; ++v) store8(out + (r + i) * width + j + v * kLanes, sum[i][v]);
  }
}

/// Rows `r` .. `rows` of one column block, R rows at a time, then the rest (fewer than R) with
/// R - 1, ...: a block of three rows keeps the multiply-adds' pipelines as busy as one of four,
/// where a single row waits on its own sums' latency.
template <int R>
DEEPTUNE_VECTOR_INLINE void productRows(float* out, const float* in, const float* w, int64_t r,
                                        int64_t rows, int64_t j, int64_t inner, int64_t width) {
  for (; r + R <= rows; r += R) productBlock<R>(out, in, w, r, j, inner, width);
  if constexpr (R > 1) productRows<R - 1>(out, in, w, r, rows, j, inner, width);
}

/// out[r][0..width) += sum over k of in[r][k] * w[k][0..width), for `rows` rows; width a
/// multiple of 32. Column blocks of 32 outermost, so that block of w stays in the L1 cache for
/// every row; up to R rows at a time share each load of it (as many as the registers hold).
template <int R>
DEEPTUNE_VECTOR_INLINE void products(float* out, const float* in, const float* w, int64_t rows,
                                     int64_t inner, int64_t width) {
  for (int64_t j = 0; j < width; j += 4 * kLanes)
    productRows<R>(out, in, w, 0, rows, j, inner, width);
}

// Builds of the products for the CPU at hand: AVX-512's 32 vector registers hold the sums of
// four rows, AVX2's 16 those of two.
__attribute__((target("arch=x86-64-v4"))) void productsAvx512(float* out, const float* in,
                                                              const float* w, int64_t rows,
                                                              int64_t inner, int64_t width) {
  products<4>(out, in, w, rows, inner, width);
}
__attribute__((target("arch=x86-64-v3"))) void productsAvx2(float* out, const float* in,
                                                            const float* w, int64_t rows,
                                                            int64_t inner, int64_t width) {
  products<2>(out, in, w, rows, inner, width);
}
void productsBaseline(float* out, const float* in, const float* w, int64_t rows, int64_t inner,
                      int64_t width) {
  products<2>(out, in, w, rows, inner, width);
}

using ProductsFunction = void (*)(float*, const float*, const float*, int64_t, int64_t, int64_t);

ProductsFunction productsForThisCpu() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq")) {
    return productsAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return productsAvx2;
  return productsBaseline;
}

}  // namespace

void addRowProducts(float* out, const float* in, const float* w, int64_t rows, int64_t inner,
                    int64_t width) {
  static const ProductsFunction best = productsForThisCpu();
  best(out, in, w, rows, inner, width);
}

}  // namespace deeptune::model::internal
