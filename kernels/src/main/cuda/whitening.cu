// whitening.cu -- twin of org.dpgauss.cpu.Whitening: z_k = M x_{row_k} with M = L^{-1} (lower triangular,
// formed on the host from the Cholesky factor), i.e. Z = X_sel M^T, a triangular GEMM.
// Launch: grid (ceil(count/16), ceil(d/16)), block (16, 16) (rows on x: its limit is 2^31-1).
#include "dp_common.cuh"

#define DP_WT 16

extern "C" __global__ void dp_whiten(const double* __restrict__ x, int d, const int* __restrict__ rows,
                                     long long count, const double* __restrict__ m, double* __restrict__ z) {
    __shared__ double xs[DP_WT][DP_WT];
    __shared__ double ms[DP_WT][DP_WT + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int j = blockIdx.y * DP_WT + tx;                  // output column
    const long long k = (long long)blockIdx.x * DP_WT + ty;  // output row (position in the list)
    const long long row = k < count ? (rows ? (long long)rows[k] : k) : 0;
    double acc = 0.0;
    // M is lower triangular: column tiles c0 > the last j of this block contribute nothing
    const int c_end = min(d, (int)(blockIdx.y + 1) * DP_WT);
    for (int c0 = 0; c0 < c_end; c0 += DP_WT) {
        const int c = c0 + tx;
        xs[ty][tx] = (k < count && c < d) ? x[row * d + c] : 0.0;
        const int mj = blockIdx.y * DP_WT + ty, mc = c0 + tx;  // ms[ty][tx] = M[mj][mc]
        ms[ty][tx] = (mj < d && mc < d && mc <= mj) ? m[(long long)mj * d + mc] : 0.0;
        __syncthreads();
#pragma unroll
        for (int t = 0; t < DP_WT; ++t) acc = fma(xs[ty][t], ms[tx][t], acc);
        __syncthreads();
    }
    if (k < count && j < d) z[k * d + j] = acc;
}
