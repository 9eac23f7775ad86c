__kernel void A(__global float* a, __global float* b, __global float* c, float d, float e) {
  int f = get_global_id(0);
  int g = get_global_id(1);

  if ((g < 512) && (f < 512)) {
    c[g * 512 + f] *= e;
    int h;
    for (h = 0; h < 512; h++) {
      c[g * 512 + f] += d * a[g * 512 + h] * b[h * 512 + f];
    }
  }
}
