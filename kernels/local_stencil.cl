// 3-point average through a local tile: each group loads its block once, edges read from global.
__kernel void local_stencil(__global const float* in, __global float* out, __local float* tile,
                            const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int size = get_local_size(0);
  tile[lid] = gid < n ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gid < n) {
    const float left = lid > 0 ? tile[lid - 1] : in[max(gid - 1, 0)];
    const float right = lid + 1 < size && gid + 1 < n ? tile[lid + 1] : in[min(gid + 1, n - 1)];
    out[gid] = (left + tile[lid] + right) / 3.0f;
  }
}
