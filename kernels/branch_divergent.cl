// Branch-divergent kernel: each element takes one of four code paths, with a data-dependent trip count, chosen by its key.
__kernel void branch_divergent(__global const uint* keys, __global const float* values,
                               __global float* out, const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  const uint key = keys[i];
  const float v = values[i];
  const int trips = (int)((key >> 8) & 63u);  // 0..63 iterations, different per element
  float result = 0.0f;
  switch (key & 3u) {
    case 0: {
      float x = fabs(v) + 1.0f;
      for (int t = 0; t < trips; ++t) {
        x = sqrt(x) + 1.0f;
      }
      result = x;
      break;
    }
    case 1: {
      uint h = key;
      for (int t = 0; t < trips; ++t) {
        h = (h ^ (h >> 13)) * 0x5bd1e995u;
      }
      result = (float)(h & 0xffffu);
      break;
    }
    case 2: {
      float acc = v;
      for (int t = 0; t < trips; ++t) {
        acc = acc * 0.5f + (float)t;
      }
      result = acc;
      break;
    }
    default:
      result = -v;
      break;
  }
  out[i] = result;
}
