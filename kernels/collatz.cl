// Branch-divergent integer loop: Collatz stopping time of each start value, capped at 1000 steps.
__kernel void collatz(__global const uint* starts, __global uint* steps, const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  uint x = starts[i] % 100000u + 1u;  // keeps 3x + 1 within 32 bits
  uint count = 0;
  while (x != 1u && count < 1000u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    ++count;
  }
  steps[i] = count;
}
