// 2-D 5-point Jacobi stencil on a row-major grid; the row width is clamped so the grid fits the buffer.
int grid_side(int n) {
  int side = (int)sqrt((float)n);
  while (side > 0 && side * side > n) {
    --side;
  }
  while ((side + 1) * (side + 1) <= n) {
    ++side;
  }
  return side;
}

__kernel void stencil_2d(__global const float* in, __global float* out, const int width, const int n) {
  const int gid = get_global_id(0);
  if (gid >= n) {
    return;
  }
  const int w = max(min(width, grid_side(n)), 1);
  const int h = n / w;
  const int x = gid % w;
  const int y = gid / w;
  if (y >= h || x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[gid] = in[gid];  // boundary cells and the tail past the last full row keep their value
    return;
  }
  out[gid] = 0.2f * (in[gid] + in[gid - 1] + in[gid + 1] + in[gid - w] + in[gid + w]);
}
