// Scatter-add through an index array: out[idx[i] mod n] += values[i] with integer atomics (deterministic sums).
__kernel void scatter_add(__global const int* values, __global const int* idx, __global int* out,
                          const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const uint j = (uint)idx[i] % (uint)n;
    atomic_add(&out[j], values[i]);
  }
}
