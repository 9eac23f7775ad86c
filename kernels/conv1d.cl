// 1-D convolution with a 7-tap filter (the first taps of filter), edges clamped.
#define RADIUS 3

__kernel void conv1d(__global const float* in, __global const float* filter, __global float* out,
                     const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  const int taps = min(2 * RADIUS + 1, n);
  float acc = 0.0f;
  for (int k = 0; k < taps; ++k) {
    const int src = clamp(i + k - RADIUS, 0, n - 1);
    acc += filter[k] * in[src];
  }
  out[i] = acc;
}
