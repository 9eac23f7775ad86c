// Reverses each work-group's block through local memory (the tail group reverses what it holds).
__kernel void local_reverse(__global const float* in, __global float* out, __local float* block,
                            const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int start = get_group_id(0) * get_local_size(0);
  const int count = min((int)get_local_size(0), n - start);
  if (lid < count) {
    block[lid] = in[gid];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < count) {
    out[gid] = block[count - 1 - lid];
  }
}
