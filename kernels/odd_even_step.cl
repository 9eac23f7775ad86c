// One phase of odd-even transposition sort: work-item i compare-exchanges keys[2i + parity] and its right neighbour.
__kernel void odd_even_step(__global float* keys, const int n, const int phase) {
  const int i = get_global_id(0);
  const int left = 2 * i + (phase & 1);
  if (i < n && left + 1 < n) {
    const float a = keys[left];
    const float b = keys[left + 1];
    if (a > b) {
      keys[left] = b;
      keys[left + 1] = a;
    }
  }
}
