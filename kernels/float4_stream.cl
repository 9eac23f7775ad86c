// float4 streaming: out = alpha * a + b * b component-wise, four lanes per work-item.
__kernel void float4_stream(__global const float4* a, __global const float4* b, __global float4* out,
                            const float alpha, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const float4 bv = b[i];
    out[i] = mad((float4)(alpha), a[i], bv * bv);
  }
}
