// SAXPY streaming kernel: y = alpha * x + y in place, one element per work-item.
__kernel void saxpy(__global const float* x, __global float* y, const float alpha, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    y[i] = alpha * x[i] + y[i];
  }
}
