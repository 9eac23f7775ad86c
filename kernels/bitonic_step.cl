// One global compare-exchange step of bitonic sort; stage size and stride are clamped to powers of two below n.
uint pow2_floor(uint x) {
  return x == 0 ? 0 : (1u << (31 - clz(x)));
}

__kernel void bitonic_step(__global uint* keys, const int n, const int stage_size, const int stride) {
  const uint i = get_global_id(0);
  const uint count = (uint)n;
  uint j = pow2_floor((uint)stride);
  while (j >= count) {
    j >>= 1;
  }
  uint k = pow2_floor((uint)stage_size);
  if (k <= j) {
    k = j << 1;
  }
  if (j == 0 || i >= count) {
    return;
  }
  const uint partner = i ^ j;
  if (partner > i && partner < count) {
    const uint a = keys[i];
    const uint b = keys[partner];
    const bool ascending = (i & k) == 0;
    if ((a > b) == ascending) {
      keys[i] = b;
      keys[partner] = a;
    }
  }
}
