/* Shared definitions of the host and the kernels. */
#ifndef SPMV_COMMON_H
#define SPMV_COMMON_H
typedef struct {
  int rows;
  int stride;
} jds_info;
#define WARP_BITS 5
#endif
