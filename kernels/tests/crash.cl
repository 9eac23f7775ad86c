// Crashes the driver on purpose: a wild write far outside every buffer (on a CPU device a
// segmentation fault of the process; a GPU driver may instead report an error).
__kernel void wild(__global float* out) {
  const size_t i = get_global_id(0);
  out[i * (size_t)0x1000000 + (size_t)0x100000000000] = 1.0f;
}
