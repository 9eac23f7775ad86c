// Tiled square matrix multiply C = A * B: each work-group stages T x T tiles of A and B in __local memory.
int tile_side(int n) {
  int side = (int)sqrt((float)n);
  while (side > 0 && side * side > n) {
    --side;
  }
  while ((side + 1) * (side + 1) <= n) {
    ++side;
  }
  return side;
}

__kernel void matmul_tiled(__global const float* A, __global const float* B, __global float* C,
                           __local float* Asub, __local float* Bsub, const int n) {
  const int w = tile_side(n);
  const int lid = get_local_id(0);
  const int T = max(tile_side(get_local_size(0)), 1);  // T * T <= work-group size
  const int ty = lid / T;
  const int tx = lid % T;
  const bool active = lid < T * T;
  const int tiles_per_side = (w + T - 1) / T;
  const int num_tiles = tiles_per_side * tiles_per_side;

  // Work-groups stride over the output tiles, so every tile is computed whatever the group count.
  for (int tile = get_group_id(0); tile < num_tiles; tile += get_num_groups(0)) {
    const int row = (tile / tiles_per_side) * T + ty;
    const int col = (tile % tiles_per_side) * T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < w; k0 += T) {
      if (active) {
        Asub[ty * T + tx] = (row < w && k0 + tx < w) ? A[row * w + k0 + tx] : 0.0f;
        Bsub[ty * T + tx] = (k0 + ty < w && col < w) ? B[(k0 + ty) * w + col] : 0.0f;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (active) {
        for (int k = 0; k < T; ++k) {
          acc += Asub[ty * T + k] * Bsub[k * T + tx];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (active && row < w && col < w) {
      C[row * w + col] = acc;
    }
  }
}
