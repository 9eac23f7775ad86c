// Row sums of a side x side row-major matrix (side = floor(sqrt(n))), one row per work-item.
int row_side(int n) {
  int side = (int)sqrt((float)n);
  while (side > 0 && side * side > n) {
    --side;
  }
  while ((side + 1) * (side + 1) <= n) {
    ++side;
  }
  return side;
}

__kernel void row_sum(__global const float* m, __global float* sums, const int n) {
  const int row = get_global_id(0);
  const int w = row_side(n);
  if (row >= w) {
    return;
  }
  float acc = 0.0f;
  for (int k = 0; k < w; ++k) {
    acc += m[row * w + k];
  }
  sums[row] = acc;
}
