// 16-tap FIR filter with taps read from global memory (the first 16, or n if fewer), clamped edges.
__kernel void fir16(__global const float* in, __global const float* taps, __global float* out,
                    const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const int t = min(16, n);
    float acc = 0.0f;
    for (int k = 0; k < t; ++k) {
      const int j = max(i - k, 0);
      acc += taps[k] * in[j];
    }
    out[i] = acc;
  }
}
