// Naive square matrix multiply C = A * B, one output element per work-item (side = floor(sqrt(n))).
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

__kernel void matmul_naive(__global const float* A, __global const float* B, __global float* C,
                           const int n) {
  const int gid = get_global_id(0);
  const int w = matrix_side(n);
  if (gid >= w * w) {
    return;
  }
  const int row = gid / w;
  const int col = gid % w;
  float acc = 0.0f;
  for (int k = 0; k < w; ++k) {
    acc += A[row * w + k] * B[k * w + col];
  }
  C[row * w + col] = acc;
}
