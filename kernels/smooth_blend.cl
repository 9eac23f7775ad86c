// Smooth blend of two signals: mix(a, b, smoothstep(0, 1, t)) with t folded into [0, 1).
__kernel void smooth_blend(__global const float* a, __global const float* b,
                           __global const float* t, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  const float weight = smoothstep(0.0f, 1.0f, t[i] - floor(t[i]));
  out[i] = mix(a[i], b[i], weight);
}
