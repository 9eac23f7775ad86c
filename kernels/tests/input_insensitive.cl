// Input-insensitive on purpose: writes the same constants whatever its input holds.
__kernel void constants(__global const float* in, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    out[i] = 42.0f + (float)(i % 7);
  }
}
