// y = A^T x for a side x side matrix (side floor(sqrt(n))): column walks, strided loads.
int column_side(int n) {
  int side = (int)sqrt((float)n);
  while (side > 0 && side * side > n) {
    --side;
  }
  while ((side + 1) * (side + 1) <= n) {
    ++side;
  }
  return side;
}

__kernel void gemv_transposed(__global const float* A, __global const float* x, __global float* y,
                              const int n) {
  const int col = get_global_id(0);
  const int w = column_side(n);
  if (col >= w) {
    return;
  }
  float acc = 0.0f;
  for (int k = 0; k < w; ++k) {
    acc += A[k * w + col] * x[k];
  }
  y[col] = acc;
}
