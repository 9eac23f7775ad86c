// Does not compile on purpose: an undeclared identifier, so the build log names it.
__kernel void broken(__global float* out) {
  out[get_global_id(0)] = undeclared_value;
}
