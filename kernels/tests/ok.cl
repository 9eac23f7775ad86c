// Well-behaved test kernels: deterministic, input-sensitive, writing every output element.

// y = a * x + y over n elements (n is S under the payload rules).
__kernel void saxpy(__global const float* x, __global float* y, const float a, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

// Scales S float4 vectors by the sum of their lanes (a vector-typed buffer: S float4s).
__kernel void scale4(__global float4* v, const uint n) {
  const uint i = get_global_id(0);
  if (i < n) {
    const float4 x = v[i];
    v[i] = x * (x.x + x.y + x.z + x.w);
  }
}
