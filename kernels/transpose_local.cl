// Square matrix transpose through a __local tile so both the global reads and writes are row-contiguous.
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

__kernel void transpose_local(__global const float* in, __global float* out, __local float* tile,
                              const int n) {
  const int gid = get_global_id(0);
  const int lid = get_local_id(0);
  const int w = square_side(n);
  const int T = max(square_side(get_local_size(0)), 1);
  const int ty = lid / T;
  const int tx = lid % T;
  const bool active = lid < T * T;
  const int tiles_per_side = (w + T - 1) / T;
  const int num_tiles = tiles_per_side * tiles_per_side;

  for (int t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
    const int tile_row = (t / tiles_per_side) * T;
    const int tile_col = (t % tiles_per_side) * T;
    if (active && tile_row + ty < w && tile_col + tx < w) {
      tile[ty * T + tx] = in[(tile_row + ty) * w + tile_col + tx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Write the transposed tile: output row (tile_col + ty), column (tile_row + tx).
    if (active && tile_col + ty < w && tile_row + tx < w) {
      out[(tile_col + ty) * w + tile_row + tx] = tile[tx * T + ty];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (gid >= w * w && gid < n) {
    out[gid] = in[gid];
  }
}
