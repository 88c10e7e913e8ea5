// neighbour_counts.cu -- twin of org.dpgauss.cpu.NeighbourCounts: c_i += #{k in the K block :
// ||x_i - x_k||^2 <= r2} for every row i of the I block (the host launches it for every pair of
// device row blocks, so the n x n pair matrix never exists).
//
// Launch: grid (ceil(ni/64), ceil(nk/64)) with nk <= 65535*64 (the host splits K), block (16, 16).
// GEMM-style register tiling: a 16 x 16 thread block covers 64 I rows x 64 K rows, each thread a
// 4 x 4 set of pairs; the columns stream through shared memory 8 at a time. Each pair's distance is
// accumulated over c = 0 .. d-1 in order with dp_sq_diff_add (no FMA), so it is bit-identical to the
// direct sum the CPU twin uses to decide every pair near the boundary (and away from the boundary
// the CPU's GEMM value and the direct sum agree in sign). Counts are integers added with atomics:
// the result is exact and does not depend on scheduling.
#include "dp_common.cuh"

#define DP_NT 64  // rows per tile side
#define DP_NC 8   // columns per shared-memory step

extern "C" __global__ void dp_neighbour_counts(const double* __restrict__ xi, long long ni,
                                               const double* __restrict__ xk, long long nk, int d, double r2,
                                               int* __restrict__ counts) {
    __shared__ double as[DP_NC][DP_NT];
    __shared__ double bs[DP_NC][DP_NT];
    __shared__ int tile_counts[DP_NT];
    const int tx = threadIdx.x, ty = threadIdx.y;  // ty -> I rows, tx -> K rows
    const int lin = ty * 16 + tx;
    const long long i0 = (long long)blockIdx.x * DP_NT, k0 = (long long)blockIdx.y * DP_NT;
    if (lin < DP_NT) tile_counts[lin] = 0;
    double e[4][4];
#pragma unroll
    for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int b = 0; b < 4; ++b) e[a][b] = 0.0;
    for (int c0 = 0; c0 < d; c0 += DP_NC) {
        // 256 threads load 64 rows x 8 columns of each side (2 elements per thread per side)
        for (int t = lin; t < DP_NT * DP_NC; t += 256) {
            const int rr = t / DP_NC, cc = t % DP_NC;
            const int c = c0 + cc;
            const long long ri = i0 + rr, rk = k0 + rr;
            as[cc][rr] = (ri < ni && c < d) ? xi[ri * d + c] : 0.0;
            bs[cc][rr] = (rk < nk && c < d) ? xk[rk * d + c] : 0.0;
        }
        __syncthreads();
        const int cmax = min(DP_NC, d - c0);  // padded columns are skipped: they would add (0-0)^2 = 0 anyway
        for (int cc = 0; cc < cmax; ++cc) {
            double av[4], bv[4];
#pragma unroll
            for (int a = 0; a < 4; ++a) av[a] = as[cc][ty + 16 * a];
#pragma unroll
            for (int b = 0; b < 4; ++b) bv[b] = bs[cc][tx + 16 * b];
#pragma unroll
            for (int a = 0; a < 4; ++a)
#pragma unroll
                for (int b = 0; b < 4; ++b) e[a][b] = dp_sq_diff_add(e[a][b], av[a], bv[b]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int a = 0; a < 4; ++a) {
        const long long i = i0 + ty + 16 * a;
        int c = 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            const long long k = k0 + tx + 16 * b;
            if (i < ni && k < nk && e[a][b] <= r2) c++;
        }
        if (c) atomicAdd(&tile_counts[ty + 16 * a], c);
    }
    __syncthreads();
    if (lin < DP_NT && i0 + lin < ni && tile_counts[lin]) atomicAdd(&counts[i0 + lin], tile_counts[lin]);
}
