// Mandelbrot escape-time per pixel of a side x side image with per-pixel sample jitter; iterations capped at min(max_iter, 512).
#pragma OPENCL FP_CONTRACT OFF

int image_side(int n) {
  int side = (int)sqrt((float)n);
  while (side > 0 && side * side > n) {
    --side;
  }
  while ((side + 1) * (side + 1) <= n) {
    ++side;
  }
  return side;
}

__kernel void mandelbrot(__global const float* jitter, __global int* iterations, const int n,
                         const int max_iter) {
  const int gid = get_global_id(0);
  if (gid >= n) {
    return;
  }
  const int w = max(image_side(n), 1);
  const int px = gid % w;
  const int py = gid / w;
  const float j = jitter[gid] - floor(jitter[gid]);
  const float scale = 2.5f / (float)w;
  const float cx = -2.0f + ((float)px + j) * scale;
  const float cy = -1.25f + ((float)py + j) * scale;
  const int cap = min(max_iter, 512);
  float zx = 0.0f;
  float zy = 0.0f;
  int it = 0;
  while (it < cap && zx * zx + zy * zy <= 4.0f) {
    const float next_x = zx * zx - zy * zy + cx;
    zy = 2.0f * zx * zy + cy;
    zx = next_x;
    ++it;
  }
  iterations[gid] = it;
}
