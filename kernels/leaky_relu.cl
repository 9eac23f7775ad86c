// Leaky ReLU with a bias: out = x + b if positive, else 0.01 (x + b); a branch per element.
__kernel void leaky_relu(__global const float* x, __global float* out, const float bias,
                         const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  const float v = x[i] + bias;
  if (v > 0.0f) {
    out[i] = v;
  } else {
    out[i] = 0.01f * v;
  }
}
