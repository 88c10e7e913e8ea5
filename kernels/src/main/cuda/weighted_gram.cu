// weighted_gram.cu -- twin of org.dpgauss.cpu.WeightedGram: sum_{k} w_k y_{row_k} y_{row_k}^T over a row
// list of one device-resident row block (the host adds blocks in block order and scales by 1/m).
// Launch: grid (ceil(d/16), ceil(d/16), chunks), block (16, 16); then dp_sum_partials.
#include "dp_common.cuh"

extern "C" __global__ void dp_weighted_gram(const double* __restrict__ y, int d, const int* __restrict__ rows,
                                            const double* __restrict__ w, long long count,
                                            long long rows_per_chunk, double* __restrict__ partial) {
    dp_cross_tile(y, d, d, y, d, d, rows, w, count, rows_per_chunk, true, partial);
}

// out[e] = sum_{c < chunks} partial[c][e], in chunk order (deterministic).
extern "C" __global__ void dp_sum_partials(const double* __restrict__ partial, int chunks, long long len,
                                           double* __restrict__ out) {
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < len;
         e += (long long)gridDim.x * blockDim.x) {
        double s = 0.0;
        for (int c = 0; c < chunks; ++c) s += partial[(long long)c * len + e];
        out[e] = s;
    }
}
