typedef struct {
  int rows;
  int stride;
} jds_info;

__kernel void A(__global float* a, __global const float* b, __global const int* c, __global const int* d, __global const float* e, const jds_info f) {
  int g = get_global_id(0);
  if (g < f.rows) {
    float h = 0.0f;
    for (int i = 0; i < 4; i++) {
      int j = i * f.stride + g;
      h += b[j] * e[c[j]];
    }
    a[d[g]] = h + ((g) >> 5);
  }
}

__kernel void B(__global float* a, const jds_info f) {
  int g = get_global_id(0);
  if (g < f.rows)
    a[g] = 0.0f;
}
