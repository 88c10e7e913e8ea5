// dp_common.cuh -- helpers shared by the dpgauss kernels.
//
// Where a CPU twin must be matched bit for bit (direct squared distances in NeighbourCounts and
// ReferenceDistances, which decide integer counts and kept sets), the arithmetic goes through
// __dsub_rn / __dmul_rn / __dadd_rn: these are never contracted into an FMA, so
//   e = __dadd_rn(e, __dmul_rn(v, v)), v = __dsub_rn(a, b), summed over c = 0 .. d-1 in order
// is exactly Java's  double v = a[c] - b[c]; e += v * v;  (IEEE double, round to nearest).
#pragma once

#include <stdint.h>

#define DP_FN __device__ __forceinline__

// Squared Euclidean distance term, no FMA contraction (see above).
DP_FN double dp_sq_diff_add(double e, double a, double b) {
    const double v = __dsub_rn(a, b);
    return __dadd_rn(e, __dmul_rn(v, v));
}

// Tile sizes of the cross-product kernels (weighted Gram, projection): a 16 x 16 thread block
// computes a 16 x 16 tile of A^T B and walks the rows of its chunk 32 at a time.
#define DP_XT 16
#define DP_XR 32

// Cross product of one launch's rows, in fixed global chunks of R rows:
//   partial[z][p][q] = init + sum_{k in chunk z} w_k * A[row_k][p] * B[row_k][q]
//   A: count x da used columns (row stride lda), B: x db (row stride ldb); row_k = rows ? rows[k] : k, for the
//   launch's positions k = 0 .. count-1, whose global positions are first + k.
//   Chunk z covers global positions [(chunk_base + z) R, (chunk_base + z + 1) R) clipped to the launch;
//   init = init0[p][q] for z == 0 when init0 != nullptr (the chunk began in the previous launch), else 0.
//   w == nullptr: unit weights (w is indexed by k, the position in the list).
//   symmetric: A == B and only tiles with p-tile >= q-tile are computed (the host mirrors them).
// Each chunk is summed row by row in global order, continuing across launches, and finished chunks are folded
// into the total in chunk order (dp_fold_partials): the result does not depend on how the rows are split
// into blocks or launches, nor on scheduling.
DP_FN void dp_cross_tile(const double* __restrict__ a, int lda, int da, const double* __restrict__ b, int ldb,
                         int db, const int* __restrict__ rows, const double* __restrict__ w, long long count,
                         long long first, long long chunk_rows, long long chunk_base,
                         const double* __restrict__ init0, bool symmetric, double* __restrict__ partial) {
    __shared__ double as[DP_XR][DP_XT];
    __shared__ double bs[DP_XR][DP_XT + 1];
    const int tq = blockIdx.x, tp = blockIdx.y;
    if (symmetric && tp < tq) return;
    const int tx = threadIdx.x, ty = threadIdx.y;  // tx -> q, ty -> p
    const int p = tp * DP_XT + ty, q = tq * DP_XT + tx;
    long long from = (chunk_base + blockIdx.z) * chunk_rows - first;
    long long to = from + chunk_rows;
    if (from < 0) from = 0;
    if (to > count) to = count;
    double acc = 0.0;
    if (blockIdx.z == 0 && init0 != nullptr && p < da && q < db) acc = init0[(long long)p * db + q];
    const int lin = ty * DP_XT + tx;  // 0 .. 255
    for (long long k0 = from; k0 < to; k0 += DP_XR) {
        // 256 threads load a 32 x 16 tile of A (columns of p-tile) and of B (columns of q-tile)
        for (int e = lin; e < DP_XR * DP_XT; e += DP_XT * DP_XT) {
            const int rr = e / DP_XT, cc = e % DP_XT;
            const long long k = k0 + rr;
            double av = 0.0, bv = 0.0;
            if (k < to) {
                const long long row = rows ? (long long)rows[k] : k;
                const double wk = w ? w[k] : 1.0;
                const int ca = tp * DP_XT + cc, cb = tq * DP_XT + cc;
                if (ca < da) av = a[row * lda + ca] * wk;
                if (cb < db) bv = b[row * ldb + cb];
            }
            as[rr][cc] = av;
            bs[rr][cc] = bv;
        }
        __syncthreads();
#pragma unroll 8
        for (int rr = 0; rr < DP_XR; ++rr) acc = fma(as[rr][ty], bs[rr][tx], acc);
        __syncthreads();
    }
    if (p < da && q < db) partial[(long long)blockIdx.z * da * db + (long long)p * db + q] = acc;
}

// total[e] += partial[z][e] for z = 0 .. chunks-1 in order (finished chunks, folded in chunk order).
DP_FN void dp_fold(const double* __restrict__ partial, int chunks, long long len, double* __restrict__ total) {
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < len;
         e += (long long)gridDim.x * blockDim.x) {
        double s = total[e];
        for (int c = 0; c < chunks; ++c) s += partial[(long long)c * len + e];
        total[e] = s;
    }
}
