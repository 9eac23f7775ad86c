// 1-D 3-point smoothing stencil (0.25, 0.5, 0.25) with clamped boundaries.
__kernel void stencil_1d(__global const float* in, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const float left = in[max(i - 1, 0)];
    const float centre = in[i];
    const float right = in[min(i + 1, n - 1)];
    out[i] = 0.25f * left + 0.5f * centre + 0.25f * right;
  }
}
