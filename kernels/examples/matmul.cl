// C = A x B for n x n row-major matrices; one work-item per element of C.
__kernel void matmul(__global const float* a, __global const float* b, __global float* c,
                     const int n) {
  const int id = get_global_id(0);
  if (id >= n * n) return;
  const int row = id / n;
  const int col = id % n;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[id] = sum;
}
