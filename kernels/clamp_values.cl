// Clamps each value into [lo, hi] (lo, hi ordered from the two scalars), a branch-free select.
__kernel void clamp_values(__global const float* x, __global float* out, const float a,
                           const float b, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const float lo = fmin(a, b);
    const float hi = fmax(a, b);
    out[i] = clamp(x[i], lo, hi);
  }
}
