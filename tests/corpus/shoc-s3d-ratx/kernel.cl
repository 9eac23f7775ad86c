// Reaction-rate update in the style of SHOC S3D: N_GP grid points per thread block come from the host.
#define C(q)  C[(((q) - 1) * (N_GP)) + threadIdx]
#define RF(q) RF[(((q) - 1) * (N_GP)) + threadIdx]
#define TINY 1.0e-20f

__kernel void ratx2_kernel(__global const float* C, __global float* RF)
{
    const int threadIdx = get_global_id(0);
    float ctot = C(1) + C(2) + C(3);
    RF(1) = RF(1) * C(2) * C(3) + TINY;
    RF(2) = RF(2) * ctot;
    RF(3) = RF(3) / (ctot + TINY);
}
