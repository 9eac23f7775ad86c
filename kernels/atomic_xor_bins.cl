// Atomics: XOR of the words falling into each of min(n, 256) bins (order does not matter).
__kernel void atomic_xor_bins(__global const uint* words, __global const uint* keys,
                              __global uint* bins, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    atomic_xor(&bins[keys[i] % (uint)min(n, 256)], words[i]);
  }
}
