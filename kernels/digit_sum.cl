// Digit sum of each word in base 7: integer division and remainder in a data-dependent loop
// (at most 12 trips, the base-7 digits of a 32-bit word).
__kernel void digit_sum(__global const uint* words, __global uint* sums, const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  uint w = words[i];
  uint sum = 0u;
  while (w != 0u) {
    sum += w % 7u;
    w /= 7u;
  }
  sums[i] = sum;
}
