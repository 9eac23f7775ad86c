// Complex products of two float2 streams (vector types): (a.x b.x - a.y b.y, a.x b.y + a.y b.x).
__kernel void complex_mul(__global const float2* a, __global const float2* b, __global float2* out,
                          const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const float2 u = a[i];
    const float2 v = b[i];
    out[i] = (float2)(u.x * v.x - u.y * v.y, u.x * v.y + u.y * v.x);
  }
}
