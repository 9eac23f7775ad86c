// Absolute difference |a - b| of two streams.
__kernel void absolute_difference(__global const float* a, __global const float* b,
                                  __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    out[i] = fabs(a[i] - b[i]);
  }
}
