// weighted_gram.cu -- twin of org.dpgauss.cpu.WeightedGram: sum_{k} w_k y_{row_k} y_{row_k}^T over a row
// list of one device-resident row block (the host adds blocks in block order and scales by 1/m).
// Launch: grid (ceil(d/16), ceil(d/16), chunks of this launch), block (16, 16); then dp_fold_partials.
#include "dp_common.cuh"

extern "C" __global__ void dp_weighted_gram(const double* __restrict__ y, int d, const int* __restrict__ rows,
                                            const double* __restrict__ w, long long count, long long first,
                                            long long chunk_rows, long long chunk_base,
                                            const double* __restrict__ init0, double* __restrict__ partial) {
    dp_cross_tile(y, d, d, y, d, d, rows, w, count, first, chunk_rows, chunk_base, init0, true, partial);
}

extern "C" __global__ void dp_fold_partials(const double* __restrict__ partial, int chunks, long long len,
                                            double* __restrict__ total) {
    dp_fold(partial, chunks, len, total);
}
