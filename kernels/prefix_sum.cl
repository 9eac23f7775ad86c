// Hillis-Steele inclusive prefix sum of each work-group's block, ping-ponging two __local buffers; block totals go to block_sums.
__kernel void prefix_sum(__global const float* in, __global float* out, __global float* block_sums,
                         __local float* buf_a, __local float* buf_b, const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int lsize = get_local_size(0);
  __local float* src = buf_a;
  __local float* dst = buf_b;

  src[lid] = (gid < n) ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < lsize; offset <<= 1) {
    dst[lid] = (lid >= offset) ? src[lid] + src[lid - offset] : src[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float* swap = src;
    src = dst;
    dst = swap;
  }
  if (gid < n) {
    out[gid] = src[lid];
  }
  if (lid == lsize - 1) {
    block_sums[get_group_id(0)] = src[lid];
  }
}
