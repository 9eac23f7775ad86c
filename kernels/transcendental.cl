// Transcendental-heavy loop: 32 rounds of sin/cos/exp/log per element on a value folded into [0, 1).
__kernel void transcendental(__global const float* in, __global float* out, const int n) {
  const int gid = get_global_id(0);
  if (gid >= n) {
    return;
  }
  float x = in[gid];
  x = x - floor(x);
  float acc = 0.0f;
  for (int r = 0; r < 32; ++r) {
    const float s = sin(3.0f * x + (float)r);
    const float c = cos(2.0f * x - (float)r);
    acc += exp(s * c) + log(1.0f + s * s);
    x = 0.5f * (x + c * c);
  }
  out[gid] = acc;
}
