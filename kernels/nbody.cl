// N-body velocity update: softened gravity from the first min(count, 512) bodies, staged through a __local float4 tile.
#define MAX_SOURCES 512
#define SOFTENING 1e-3f

__kernel void nbody(__global const float4* pos, __global float4* vel, __local float4* tile,
                    const float dt, const int count) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int lsize = get_local_size(0);
  const int sources = min(count, MAX_SOURCES);
  const float4 p = (gid < count) ? pos[gid] : (float4)(0.0f);
  float3 acc = (float3)(0.0f);

  for (int base = 0; base < sources; base += lsize) {
    const int j = base + lid;
    tile[lid] = (j < sources) ? pos[j] : (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int m = min(lsize, sources - base);
    for (int k = 0; k < m; ++k) {
      const float4 q = tile[k];
      const float3 d = q.xyz - p.xyz;
      const float r2 = dot(d, d) + SOFTENING;
      const float inv = rsqrt(r2);
      acc += d * (fabs(q.w) * inv * inv * inv);  // w holds the mass
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (gid < count) {
    float4 v = vel[gid];
    v.xyz += acc * dt;
    vel[gid] = v;
  }
}
