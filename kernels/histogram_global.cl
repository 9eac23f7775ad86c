// Histogram with global atomics: atomic_inc on one of min(n, 256) __global bins per input value.
__kernel void histogram_global(__global const uint* data, __global uint* bins, const int n) {
  const int gid = get_global_id(0);
  if (gid < n) {
    const uint num_bins = (uint)min(n, 256);
    atomic_inc(&bins[data[gid] % num_bins]);
  }
}
