// Dense matrix-vector product y = A x for a side x side row-major matrix, one row per work-item.
int matrix_side(int n) {
  int side = (int)sqrt((float)n);
  while (side > 0 && side * side > n) {
    --side;
  }
  while ((side + 1) * (side + 1) <= n) {
    ++side;
  }
  return side;
}

__kernel void gemv(__global const float* A, __global const float* x, __global float* y, const int n) {
  const int row = get_global_id(0);
  const int w = matrix_side(n);
  if (row >= w) {
    return;
  }
  float acc = 0.0f;
  for (int k = 0; k < w; ++k) {
    acc += A[row * w + k] * x[k];
  }
  y[row] = acc;
}
