// Tiny integer kernel: each word XOR its own index.
__kernel void xor_index(__global const uint* in, __global uint* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    out[i] = in[i] ^ (uint)i;
  }
}
