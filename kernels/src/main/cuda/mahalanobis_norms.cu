// mahalanobis_norms.cu -- twin of org.dpgauss.cpu.MahalanobisNorms: q_k = ||L^{-1} x_{row_k}||^2.
// The host whitens the listed rows with dp_whiten (whitening.cu) into z, then this kernel sums the
// squares of each row of z in column order (one thread per row).
#include "dp_common.cuh"

extern "C" __global__ void dp_row_squared_norms(const double* __restrict__ z, int d, long long count,
                                                double* __restrict__ q) {
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < count;
         k += (long long)gridDim.x * blockDim.x) {
        const double* r = z + k * d;
        double s = 0.0;
        for (int j = 0; j < d; ++j) s = fma(r[j], r[j], s);
        q[k] = s;
    }
}
