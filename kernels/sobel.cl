// Sobel gradient magnitude of a side x side image (side floor(sqrt(n))); border pixels copied.
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

__kernel void sobel(__global const float* img, __global float* out, const int n) {
  const int i = get_global_id(0);
  const int w = image_side(n);
  if (i >= n) {
    return;
  }
  const int x = i % max(w, 1);
  const int y = i / max(w, 1);
  if (i >= w * w || x == 0 || y == 0 || x == w - 1 || y == w - 1) {
    out[i] = img[i];
    return;
  }
  const float gx = img[i - w + 1] + 2.0f * img[i + 1] + img[i + w + 1] - img[i - w - 1] -
                   2.0f * img[i - 1] - img[i + w - 1];
  const float gy = img[i + w - 1] + 2.0f * img[i + w] + img[i + w + 1] - img[i - w - 1] -
                   2.0f * img[i - w] - img[i - w + 1];
  out[i] = sqrt(gx * gx + gy * gy);
}
