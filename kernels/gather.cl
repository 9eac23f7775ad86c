// Gather through an index array: dst[i] = src[idx[i] mod n] (random, uncoalesced reads).
__kernel void gather(__global const float* src, __global const int* idx, __global float* dst,
                     const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const uint j = (uint)idx[i] % (uint)n;
    dst[i] = src[j];
  }
}
