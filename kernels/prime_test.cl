// Branch-divergent integer work: is (key mod 20000) + 2 prime? Trial division up to its root.
__kernel void prime_test(__global const uint* keys, __global uint* is_prime, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const uint v = keys[i] % 20000u + 2u;
    uint prime = 1u;
    for (uint d = 2u; d * d <= v; ++d) {
      if (v % d == 0u) {
        prime = 0u;
        break;
      }
    }
    is_prime[i] = prime * v;
  }
}
