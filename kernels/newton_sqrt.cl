// Compute-bound: square roots by 16 Newton steps, of each |value| + 1.
__kernel void newton_sqrt(__global const float* x, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const float a = fabs(x[i]) + 1.0f;
    float r = a;
    for (int k = 0; k < 16; ++k) {
      r = 0.5f * (r + a / r);
    }
    out[i] = r;
  }
}
