// Branch-divergent: eight code paths chosen by key & 7, each a different arithmetic recipe.
__kernel void switch_paths(__global const uint* keys, __global const float* x, __global float* out,
                           const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  const float v = x[i] - floor(x[i]) + 0.5f;
  float r;
  switch (keys[i] & 7u) {
    case 0: r = v * v; break;
    case 1: r = sqrt(v); break;
    case 2: r = exp(v); break;
    case 3: r = log(v); break;
    case 4: r = sin(v) + cos(v); break;
    case 5: r = 1.0f / v; break;
    case 6: r = v * v * v - v; break;
    default: r = -v; break;
  }
  out[i] = r;
}
