// Reverses the array: out[i] = in[n - 1 - i].
__kernel void reverse_array(__global const float* in, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    out[i] = in[n - 1 - i];
  }
}
