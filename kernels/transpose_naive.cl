// Naive out-of-place square matrix transpose (uncoalesced writes); the tail past side*side is copied.
int square_side(int n) {
  int side = (int)sqrt((float)n);
  while (side > 0 && side * side > n) {
    --side;
  }
  while ((side + 1) * (side + 1) <= n) {
    ++side;
  }
  return side;
}

__kernel void transpose_naive(__global const float* in, __global float* out, const int n) {
  const int gid = get_global_id(0);
  if (gid >= n) {
    return;
  }
  const int w = square_side(n);
  if (gid >= w * w) {
    out[gid] = in[gid];
    return;
  }
  const int row = gid / w;
  const int col = gid % w;
  out[col * w + row] = in[gid];
}
