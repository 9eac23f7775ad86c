// partial[g] = sum of work-group g's elements of `in`, by a tree in local memory.
__kernel void block_sum(__global const float* in, __global float* partial,
                        __local float* scratch, const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  scratch[lid] = gid < n ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
