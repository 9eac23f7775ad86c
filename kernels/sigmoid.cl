// Logistic sigmoid of each value, its argument clamped to [-30, 30] so exp stays finite.
__kernel void sigmoid(__global const float* x, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const float v = clamp(x[i], -30.0f, 30.0f);
    out[i] = 1.0f / (1.0f + exp(-v));
  }
}
