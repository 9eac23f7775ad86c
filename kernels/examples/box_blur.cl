// out = the 3x3 box blur of `in`, a width x height image (edges clamped); one work-item a pixel.
__kernel void box_blur(__global const float* in, __global float* out, const int width,
                       const int height) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int sx = clamp(x + dx, 0, width - 1);
      const int sy = clamp(y + dy, 0, height - 1);
      sum += in[sy * width + sx];
    }
  }
  out[y * width + x] = sum / 9.0f;
}
