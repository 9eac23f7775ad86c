// Atomics: the largest value falling into each of min(n, 64) bins, by atomic_max (any order).
__kernel void atomic_max_bins(__global const uint* values, __global uint* bins, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const uint v = values[i];
    atomic_max(&bins[(v * 2654435761u) % (uint)min(n, 64)], v);
  }
}
