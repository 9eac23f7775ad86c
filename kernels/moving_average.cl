// Moving average over the 32 values ending at each element (fewer at the start): reused loads.
__kernel void moving_average(__global const float* in, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const int first = max(i - 31, 0);
    float acc = 0.0f;
    for (int k = first; k <= i; ++k) {
      acc += in[k];
    }
    out[i] = acc / (float)(i - first + 1);
  }
}
