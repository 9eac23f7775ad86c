// Atomics under contention: every work-item with a positive value increments one counter.
__kernel void count_positive(__global const float* x, __global uint* count, const int n) {
  const int i = get_global_id(0);
  if (i < n && x[i] > 0.0f) {
    atomic_inc(&count[0]);
  }
}
