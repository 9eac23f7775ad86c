// Full bitonic sort of each work-group's block in __local memory (largest power-of-two prefix of the group).
__kernel void bitonic_sort_local(__global float* keys, __local float* block, const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int lsize = get_local_size(0);
  int p = 1;
  while (2 * p <= lsize) {
    p <<= 1;
  }
  block[lid] = (gid < n) ? keys[gid] : INFINITY;  // padding sorts to the end
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int k = 2; k <= p; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      const int partner = lid ^ j;
      if (lid < p && partner > lid) {
        const float a = block[lid];
        const float b = block[partner];
        const bool ascending = (lid & k) == 0;
        if ((a > b) == ascending) {
          block[lid] = b;
          block[partner] = a;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (gid < n && lid < p) {
    keys[gid] = block[lid];
  }
}
