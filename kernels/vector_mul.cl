// Element-wise product c = a * b: one multiply per two loads and a store (memory-bound).
__kernel void vector_mul(__global const float* a, __global const float* b, __global float* c,
                         const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    c[i] = a[i] * b[i];
  }
}
