// Tiny: work-item 0 alone adds the first two values; every other item has nothing to do.
__kernel void first_pair_sum(__global const float* in, __global float* out, const int n) {
  if (get_global_id(0) == 0) {
    out[0] = n > 1 ? in[0] + in[1] : in[0];
  }
}
