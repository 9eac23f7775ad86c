// Element-wise sum of two vectors: the smallest streaming kernel, used as the README's example.
#define TYPE float

__kernel void vector_add(__global const TYPE* left, __global const TYPE* right,
                         __global TYPE* sum, const unsigned int count) {
  const size_t index = get_global_id(0);
  if (index < count) {
    sum[index] = left[index] + right[index];
  }
}
