// Reads with a large odd stride (item i reads element 4099 * i mod n): uncoalesced loads.
__kernel void strided_read(__global const float* in, __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const uint j = (uint)(((ulong)i * 4099u) % (ulong)n);
    out[i] = in[j] * 2.0f;
  }
}
