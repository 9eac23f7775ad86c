// Sparse matrix-vector product in the style of Parboil's spmv (JDS format), two kernels.
#include "common.h"
#include "local.h"

__kernel void spmv_jds(__global float *dst_vector, __global const float *d_data,
                       __global const int *d_index, __global const int *d_perm,
                       __global const float *x_vec, const jds_info info)
{
  int ix = get_global_id(0);
  if (ix < info.rows) {
    float sum = 0.0f;
    for (int k = 0; k < DEPTH; k++) {
      int j = k * info.stride + ix;
      sum += d_data[j] * x_vec[d_index[j]];
    }
    dst_vector[d_perm[ix]] = sum + ROW_OF(ix);
  }
}

__kernel void spmv_clear(__global float *dst_vector, const jds_info info)
{
  int ix = get_global_id(0);
  if (ix < info.rows) dst_vector[ix] = 0.0f;
}
