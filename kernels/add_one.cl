// Tiny kernel: each integer plus one, the least work a launch can carry.
__kernel void add_one(__global const int* in, __global int* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    out[i] = in[i] + 1;
  }
}
