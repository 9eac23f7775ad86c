// Internal: eight floats at a time (GCC vector extensions) and the gate functions on them.
#pragma once

#include <cstdint>
#include <cstring>

namespace deeptune::model::internal {

/// Eight floats: one AVX register, or two SSE ones in the baseline build. The recurrent loops'
/// products and gate functions run on these.
typedef float Floats8 __attribute__((vector_size(32)));
typedef int32_t Ints8 __attribute__((vector_size(32)));
constexpr int64_t kLanes = 8;

// Always inlined: a clone built for AVX2 must not call these across the ISA boundary.
#define DEEPTUNE_VECTOR_INLINE inline __attribute__((always_inline))

DEEPTUNE_VECTOR_INLINE Floats8 load8(const float* p) {
  Floats8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
DEEPTUNE_VECTOR_INLINE void store8(float* p, Floats8 v) { std::memcpy(p, &v, sizeof v); }
DEEPTUNE_VECTOR_INLINE Floats8 broadcast8(float x) { return Floats8{x, x, x, x, x, x, x, x}; }

/// e^x lane by lane: 2^n p(r) with n = round(x / ln 2), r = x - n ln 2 in [-ln 2 / 2, ln 2 / 2]
/// and Cephes' expf polynomial (relative error about 1e-7); x is clamped to [-87, 87], far past
/// where the sigmoids saturate.
DEEPTUNE_VECTOR_INLINE Floats8 exp8(Floats8 x) {
  const Floats8 low = broadcast8(-87.0f), high = broadcast8(87.0f);
  x = x < low ? low : x;
  x = x > high ? high : x;
  const Floats8 magic = broadcast8(12582912.0f);  // 1.5 * 2^23: adding it rounds to an integer
  const Floats8 n = (x * 1.44269504f + magic) - magic;
  const Floats8 r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
  Floats8 p = broadcast8(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const Ints8 bits = (__builtin_convertvector(n, Ints8) + 127) << 23;
  Floats8 scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

DEEPTUNE_VECTOR_INLINE Floats8 sigmoid8(Floats8 x) { return 1.0f / (1.0f + exp8(-x)); }
/// tanh through the same exp (its absolute error stays near float rounding).
DEEPTUNE_VECTOR_INLINE Floats8 tanh8(Floats8 x) { return 2.0f / (1.0f + exp8(-2.0f * x)) - 1.0f; }

}  // namespace deeptune::model::internal
