typedef struct {
  float x;
  float y;
  float z;
} FLOAT3;

float A(FLOAT3 a) {
  return a.x * a.x + a.y * a.y + a.z * a.z;
}

__kernel void B(__global const float* b, __global const float* c, __global float* d, int e) {
  const int f = get_global_id(0);
  if (f >= e)
    return;
  float g = b[f + 0 * e];
  FLOAT3 h;
  h.x = b[f + (1 + 0) * e];
  h.y = b[f + (1 + 1) * e];
  h.z = b[f + (1 + 2) * e];
  FLOAT3 a;
  a.x = h.x / g;
  a.y = h.y / g;
  a.z = h.z / g;
  float i = A(a);
  float j = sqrt(1.4f * i);
  d[f] = 0.5f / (sqrt(c[f]) * (sqrt(i) + j));
}
