// Dot product of two float4 arrays: per-item dot(), then a __local tree reduction to one partial per work-group.
__kernel void dot_float4(__global const float4* a, __global const float4* b, __global float* partial,
                         __local float* scratch, const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int lsize = get_local_size(0);
  scratch[lid] = (gid < n) ? dot(a[gid], b[gid]) : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
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
