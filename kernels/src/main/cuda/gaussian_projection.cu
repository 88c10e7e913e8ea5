// gaussian_projection.cu -- twin of org.dpgauss.cpu.GaussianProjection: D^T G for one row block of D,
// with G (rows x r) generated on the device from the counter-based generators of counter_rng.cuh:
// G[i][j] = normal(first + i*r + j), the same stream the CPU twin uses (ChaCha20 for privacy noise,
// Philox4x32-10 for simulations). Step 1 fills G for a sub-block of rows (dp_projection_normals_*,
// block-wise: one generator block feeds several normals); step 2 is the cross product D^T G
// (dp_projection_cross, fixed global chunks) folded by dp_projection_fold_partials, so the result does
// not depend on the row blocks (as the CPU twin's).
#include "counter_rng.cuh"
#include "dp_common.cuh"

extern "C" __global__ void dp_projection_cross(const double* __restrict__ x, int d, const double* __restrict__ g,
                                               int r, long long count, long long first, long long chunk_rows,
                                               long long chunk_base, const double* __restrict__ init0,
                                               double* __restrict__ partial) {
    dp_cross_tile(x, d, d, g, r, r, nullptr, nullptr, count, first, chunk_rows, chunk_base, init0, false, partial);
}

extern "C" __global__ void dp_projection_fold_partials(const double* __restrict__ partial, int chunks, long long len,
                                                       double* __restrict__ total) {
    dp_fold(partial, chunks, len, total);
}

namespace {
__device__ __forceinline__ uint64_t dp_tid() { return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ uint64_t dp_nthreads() { return (uint64_t)gridDim.x * blockDim.x; }
}  // namespace

// out[t] = normal(start + t), 0 <= t < n; one thread per uniform pair (the pair shares its two words).
extern "C" __global__ void dp_projection_normals_chacha20(const uint32_t* __restrict__ key8,
                                                          unsigned long long stream, unsigned long long start,
                                                          double* __restrict__ out, long long n) {
    if (n <= 0) return;
    uint32_t key[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) key[i] = __ldg(key8 + i);
    const uint64_t end = start + (uint64_t)n;
    const uint64_t last_block = ((end - 1) / 2) / 4;  // 4 uniform pairs per ChaCha20 block
    for (uint64_t b = (start / 2) / 4 + dp_tid(); b <= last_block; b += dp_nthreads()) {
        uint32_t w[16];
        chacha20_block(key, b, stream, w);
#pragma unroll
        for (int p = 0; p < 4; ++p) {
            const uint64_t k = 2 * (b * 4 + p);
            if (k + 1 < start || k >= end) continue;
            double z0, z1;
            box_muller(u64_to_uniform(dp_pack64(w[4 * p], w[4 * p + 1])),
                       u64_to_uniform(dp_pack64(w[4 * p + 2], w[4 * p + 3])), &z0, &z1);
            if (k >= start) out[k - start] = z0;
            if (k + 1 < end) out[k + 1 - start] = z1;
        }
    }
}

extern "C" __global__ void dp_projection_normals_philox(unsigned long long key, unsigned long long stream,
                                                        unsigned long long start, double* __restrict__ out,
                                                        long long n) {
    if (n <= 0) return;
    const uint64_t end = start + (uint64_t)n;
    const uint64_t last_block = (end - 1) / 2;  // one uniform pair per Philox block
    for (uint64_t b = start / 2 + dp_tid(); b <= last_block; b += dp_nthreads()) {
        uint32_t w[4];
        philox4x32_block(key, stream, b, w);
        const uint64_t k = 2 * b;
        double z0, z1;
        box_muller(u64_to_uniform(dp_pack64(w[0], w[1])), u64_to_uniform(dp_pack64(w[2], w[3])), &z0, &z1);
        if (k >= start) out[k - start] = z0;
        if (k + 1 < end) out[k + 1 - start] = z1;
    }
}
