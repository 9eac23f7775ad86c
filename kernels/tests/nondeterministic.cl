// Nondeterministic on purpose: work-items take output slots in the order they win an atomic race,
// so which work-item lands in which slot changes from run to run when work-groups run in
// parallel. The busy loop before the race makes work-groups overlap in time on a CPU device.
__kernel void race(__global int* out, __global uint* counter, const int n) {
  const int i = get_global_id(0);
  float x = (float)i;
  for (int k = 0; k < 256; ++k) {
    x = x * 0.999f + 1.0f;
  }
  const uint slot = atomic_inc(&counter[0]) % (uint)n;  // counter starts anywhere: any slot
  out[slot] = i + (x < 0.0f ? 1 : 0);
}
