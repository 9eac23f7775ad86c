// Colour conversion: the Rec. 709 luma of each float4 RGBA pixel, channels folded into [0, 1).
__kernel void rgb_to_luma(__global const float4* pixels, __global float* luma, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    const float4 p = pixels[i] - floor(pixels[i]);
    luma[i] = dot(p, (float4)(0.2126f, 0.7152f, 0.0722f, 0.0f)) * p.w;
  }
}
