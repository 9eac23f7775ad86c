// Integer-ALU-bound hashing: 16 rounds of a murmur3-style finaliser with rotations per 32-bit key.
__kernel void hash_mix(__global const uint* keys, __global uint* hashes, const uint seed, const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  uint h = keys[i] ^ seed;
  for (int round = 0; round < 16; ++round) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    h = rotate(h, (uint)(round + 1)) + 0x9e3779b9u;
  }
  hashes[i] = h;
}
