// Work-group max reduction with barriers: each group writes the largest value of its block to partial[g].
__kernel void reduce_max(__global const float* in, __global float* partial, __local float* scratch,
                         const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int lsize = get_local_size(0);

  scratch[lid] = (gid < n) ? in[gid] : -INFINITY;
  barrier(CLK_LOCAL_MEM_FENCE);

  // Interleaved pairing: valid for any work-group size, not only powers of two.
  for (int stride = 1; stride < lsize; stride <<= 1) {
    if ((lid % (2 * stride)) == 0 && lid + stride < lsize) {
      scratch[lid] = fmax(scratch[lid], scratch[lid + stride]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    partial[get_group_id(0)] = scratch[0];
  }
}
