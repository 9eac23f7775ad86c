// Dot product a . b: per-item products summed per work-group in local memory -> partial[group].
__kernel void dot_local(__global const float* a, __global const float* b, __global float* partial,
                        __local float* scratch, const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int size = get_local_size(0);
  scratch[lid] = gid < n ? a[gid] * b[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int active = size; active > 1;) {
    const int upper = (active + 1) / 2;
    if (lid < active - upper) {
      scratch[lid] += scratch[lid + upper];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    active = upper;
  }
  if (lid == 0 && get_group_id(0) < (uint)n) {
    partial[get_group_id(0)] = scratch[0];
  }
}
