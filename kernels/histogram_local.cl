// Privatised histogram: per-work-group counts with __local atomics, then merged into __global bins.
__kernel void histogram_local(__global const uint* data, __global uint* bins, __local uint* local_bins,
                              const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int num_bins = min(min((int)get_local_size(0), n), 256);

  if (lid < num_bins) {
    local_bins[lid] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gid < n) {
    atomic_inc(&local_bins[data[gid] % (uint)num_bins]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < num_bins && local_bins[lid] != 0) {
    atomic_add(&bins[lid], local_bins[lid]);
  }
}
