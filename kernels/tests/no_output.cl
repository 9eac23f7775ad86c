// No output on purpose: the only store is under a condition that payload values never meet
// (random floats lie in [0, 1)), so no output buffer ever changes.
__kernel void nothing(__global const float* in, __global float* out, const int n) {
  const int i = get_global_id(0);
  const float x = in[i] * 2.0f;
  if (i < n && x > 100.0f) {
    out[i] = x;
  }
}
