// Work-group sum reduction in local memory (tree with barriers); partial[g] = sum of group g's block.
__kernel void reduce_sum(__global const float* in, __global float* partial, __local float* scratch,
                         const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int lsize = get_local_size(0);

  scratch[lid] = (gid < n) ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);

  // Round the tree width up to a power of two so any work-group size reduces correctly.
  int width = 1;
  while (width < lsize) {
    width <<= 1;
  }
  for (int stride = width >> 1; stride > 0; stride >>= 1) {
    if (lid < stride && lid + stride < lsize) {
      scratch[lid] += scratch[lid + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    partial[get_group_id(0)] = scratch[0];
  }
}
