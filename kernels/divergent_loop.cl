// Branch-divergent: each work-item loops key mod 128 times, so neighbours finish at different times.
__kernel void divergent_loop(__global const uint* keys, __global const float* x, __global float* out,
                             const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const uint trips = keys[i] % 128u;
    float v = x[i] - floor(x[i]);
    for (uint k = 0; k < trips; ++k) {
      v = v * 0.75f + 0.125f;
    }
    out[i] = v + (float)trips;
  }
}
