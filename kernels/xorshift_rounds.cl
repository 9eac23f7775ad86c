// Integer ALU: 32 rounds of a xorshift32 generator seeded by each element (zero seeds replaced).
__kernel void xorshift_rounds(__global const uint* seeds, __global uint* out, const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  uint x = seeds[i] | 1u;
  for (int round = 0; round < 32; ++round) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  out[i] = x;
}
