// Integer bit counting: popcount, parity and leading zeros of each word, packed into one result.
__kernel void bit_count(__global const uint* words, __global uint* counts, const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  const uint w = words[i];
  const uint ones = popcount(w);
  counts[i] = (ones << 16) | ((ones & 1u) << 8) | clz(w);
}
