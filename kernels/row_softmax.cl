// Softmax over each work-group's block (one row per group): local max reduction, exp, local sum reduction, normalise.
__kernel void row_softmax(__global const float* logits, __global float* probs, __local float* scratch,
                          const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int lsize = get_local_size(0);
  int width = 1;
  while (width < lsize) {
    width <<= 1;
  }
  const float x = (gid < n) ? logits[gid] : -INFINITY;

  scratch[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = width >> 1; stride > 0; stride >>= 1) {
    if (lid < stride && lid + stride < lsize) {
      scratch[lid] = fmax(scratch[lid], scratch[lid + stride]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float row_max = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);

  const float e = (gid < n) ? exp(x - row_max) : 0.0f;
  scratch[lid] = e;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = width >> 1; stride > 0; stride >>= 1) {
    if (lid < stride && lid + stride < lsize) {
      scratch[lid] += scratch[lid + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (gid < n) {
    probs[gid] = e / scratch[0];
  }
}
