// Streaming scale-and-offset: dst = factor * src + 1, a bandwidth-bound copy with one multiply-add.
__kernel void scale(__global const float* src, __global float* dst, const float factor, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    dst[i] = factor * src[i] + 1.0f;
  }
}
