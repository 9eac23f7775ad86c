// Row-block matrix products for the hand-written LSTM paths, built for AVX-512, AVX2 and x86-64.
#include "model/internal/matrix_products.hpp"

#include "model/internal/vector_math.hpp"

namespace deeptune::model::internal {
namespace {

/// Distances in floats between consecutive rows of `out` and of `in`.
struct RowStrides {
  int64_t out, in;
};

/// out[r][j..j+32) += sum over k of in[r][k] * w[k][j..j+32) for R rows from `r`, the
/// accumulators held in registers while k runs.
template <int R>
DEEPTUNE_VECTOR_INLINE void productBlock(float* out, const float* in, const float* w, int64_t r,
                                         int64_t j, int64_t inner, int64_t width,
                                         RowStrides strides) {
  Floats8 sum[R][4];
  for (int i = 0; i < R; ++i) {
    for (int v = 0; v < 4; ++v) sum[i][v] = load8(out + (r + i) * strides.out + j + v * kLanes);
  }
  for (int64_t k = 0; k < inner; ++k) {
    const float* row = w + k * width + j;
    const Floats8 w0 = load8(row), w1 = load8(row + 8), w2 = load8(row + 16), w3 = load8(row + 24);
    for (int i = 0; i < R; ++i) {
      const float x = in[(r + i) * strides.in + k];  // a scalar operand: GCC broadcasts it once
      sum[i][0] += x * w0;
      sum[i][1] += x * w1;
      sum[i][2] += x * w2;
      sum[i][3] += x * w3;
    }
  }
  for (int i = 0; i < R; ++i) {
    for (int v = 0; v < 4; ++v) store8(out + (r + i) * strides.out + j + v * kLanes, sum[i][v]);
  }
}

/// Rows `r` .. `rows` of one column block, R rows at a time, then the rest (fewer than R) with
/// R - 1, ...: a block of three rows keeps the multiply-adds' pipelines as busy as one of four,
/// where a single row waits on its own sums' latency.
template <int R>
DEEPTUNE_VECTOR_INLINE void productRows(float* out, const float* in, const float* w, int64_t r,
                                        int64_t rows, int64_t j, int64_t inner, int64_t width,
                                        RowStrides strides) {
  for (; r + R <= rows; r += R) productBlock<R>(out, in, w, r, j, inner, width, strides);
  if constexpr (R > 1) productRows<R - 1>(out, in, w, r, rows, j, inner, width, strides);
}

/// One row's out[j..j + 8C) += sum over k of in[k] * w[k][j..j + 8C): C sums of eight columns,
/// each accumulating k in order as productBlock's do (the same results), but C of them
/// independent, where a block of one row's four sums waits on the multiply-add's latency.
template <int C>
DEEPTUNE_VECTOR_INLINE void singleRowBlock(float* out, const float* in, const float* w, int64_t j,
                                           int64_t inner, int64_t width) {
  Floats8 sum[C];
  for (int v = 0; v < C; ++v) sum[v] = load8(out + j + v * kLanes);
  for (int64_t k = 0; k < inner; ++k) {
    const float x = in[k];
    const float* row = w + k * width + j;
    for (int v = 0; v < C; ++v) sum[v] += x * load8(row + v * kLanes);
  }
  for (int v = 0; v < C; ++v) store8(out + j + v * kLanes, sum[v]);
}

/// One row over columns [j, width), C vectors at a time, then narrower blocks for the rest (width
/// a multiple of 32).
template <int C>
DEEPTUNE_VECTOR_INLINE void singleRow(float* out, const float* in, const float* w, int64_t j,
                                      int64_t inner, int64_t width) {
  for (; j + C * kLanes <= width; j += C * kLanes) singleRowBlock<C>(out, in, w, j, inner, width);
  if constexpr (C > 4) singleRow<C / 2>(out, in, w, j, inner, width);
}

/// out[r][0..width) += sum over k of in[r][k] * w[k][0..width), for `rows` rows; width a
/// multiple of 32. Column blocks of 32 outermost, so that block of w stays in the L1 cache for
/// every row; up to R rows at a time share each load of it (as many as the registers hold). A
/// lone row (the single-sequence path, a batch's last running sequence) takes C vectors of
/// columns at a time instead.
template <int R, int C>
DEEPTUNE_VECTOR_INLINE void products(float* out, int64_t outStride, const float* in,
                                     int64_t inStride, const float* w, int64_t rows, int64_t inner,
                                     int64_t width) {
  if (rows == 1) return singleRow<C>(out, in, w, 0, inner, width);
  const RowStrides strides{outStride, inStride};
  for (int64_t j = 0; j < width; j += 4 * kLanes) {
    productRows<R>(out, in, w, 0, rows, j, inner, width, strides);
  }
}

// Builds of the products for the CPU at hand: AVX-512's 32 vector registers hold the sums of
// four rows (or 16 vectors of one), AVX2's 16 those of two (or 8 vectors of one).
#define DEEPTUNE_PRODUCTS_BUILD(name, target, R, C)                                  \
  target void name(float* out, int64_t outStride, const float* in, int64_t inStride, \
                   const float* w, int64_t rows, int64_t inner, int64_t width) {     \
    products<R, C>(out, outStride, in, inStride, w, rows, inner, width);             \
  }
DEEPTUNE_PRODUCTS_BUILD(productsAvx512, __attribute__((target("arch=x86-64-v4"))), 4, 16)
DEEPTUNE_PRODUCTS_BUILD(productsAvx2, __attribute__((target("arch=x86-64-v3"))), 2, 8)
DEEPTUNE_PRODUCTS_BUILD(productsBaseline, , 2, 4)
#undef DEEPTUNE_PRODUCTS_BUILD

using ProductsFunction = void (*)(float*, int64_t, const float*, int64_t, const float*, int64_t,
                                  int64_t, int64_t);

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
  addStridedRowProducts(out, width, in, inner, w, rows, inner, width);
}

void addStridedRowProducts(float* out, int64_t outStride, const float* in, int64_t inStride,
                           const float* w, int64_t rows, int64_t inner, int64_t width) {
  static const ProductsFunction best = productsForThisCpu();
  best(out, outStride, in, inStride, w, rows, inner, width);
}

}  // namespace deeptune::model::internal
