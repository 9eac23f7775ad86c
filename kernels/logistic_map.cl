// Compute-bound: 64 steps of the logistic map r x (1 - x) from each value folded into [0, 1).
__kernel void logistic_map(__global const float* x, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    float v = x[i] - floor(x[i]);
    for (int k = 0; k < 64; ++k) {
      v = 3.7f * v * (1.0f - v);
    }
    out[i] = v;
  }
}
