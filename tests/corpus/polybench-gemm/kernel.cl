/* GEMM in the style of PolyBench/GPU: C = alpha * A * B + beta * C. NI, NJ, NK come from the host. */
typedef float DATA_TYPE;

__kernel void gemm(__global DATA_TYPE *a, __global DATA_TYPE *b, __global DATA_TYPE *c,
                   DATA_TYPE alpha, DATA_TYPE beta)
{
    int j = get_global_id(0);
    int i = get_global_id(1);

    if ((i < NI) && (j < NJ))
    {
        c[i * NJ + j] *= beta;
        int k;
        for (k = 0; k < NK; k++)
        {
            c[i * NJ + j] += alpha * a[i * NK + k] * b[k * NJ + j];
        }
    }
}
