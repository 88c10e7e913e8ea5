// counter_rng.cu -- kernels that fill out[i] = normal(start + i) or uniform(start + i), 0 <= i < n,
// for the ChaCha20 (privacy noise) and Philox4x32-10 (simulation only) streams of counter_rng.cuh.
//
// Parity with the Java generators (org.dpgauss.random, cpu-fallback) is still to be checked on a
// GPU: the Java test vectors (RFC 8439, Random123 kat_vectors) and the Java fill* output are the
// reference. Words and uniforms should be bit-identical; normals equal within a few ulps.
//
// Work split: grid-stride loop over generator blocks. A thread generates one block and emits every
// element it covers: Philox (4 words) = one uniform pair = one pair of normals per thread; ChaCha20
// (16 words) = four uniform pairs = four pairs of normals per thread, so the expensive 20-round
// block is computed once rather than once per pair. Any grid size is correct; start may be odd.
// The host keeps start + n <= 2^63 (as the Java side does).
#include "counter_rng.cuh"

namespace {

struct ChaChaGen {
    static constexpr int kWords = 16;
    uint32_t key[8];
    uint64_t stream;
    __device__ __forceinline__ void block(uint64_t counter, uint32_t out[16]) const {
        chacha20_block(key, counter, stream, out);
    }
};

struct PhiloxGen {
    static constexpr int kWords = 4;
    uint64_t key;
    uint64_t stream;
    __device__ __forceinline__ void block(uint64_t counter, uint32_t out[4]) const {
        philox4x32_block(key, stream, counter, out);
    }
};

__device__ __forceinline__ uint64_t first_thread() {
    return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ uint64_t grid_threads() {
    return (uint64_t)gridDim.x * blockDim.x;
}

template <class G>
__device__ __forceinline__ void fill_uniforms(const G& g, uint64_t start, double* out, long long n) {
    if (n <= 0) return;
    constexpr int H = G::kWords / 2;  // 64-bit words per block
    const uint64_t end = start + (uint64_t)n;
    const uint64_t last = (end - 1) / H;
    for (uint64_t b = start / H + first_thread(); b <= last; b += grid_threads()) {
        uint32_t w[G::kWords];
        g.block(b, w);
#pragma unroll
        for (int j = 0; j < H; ++j) {
            const uint64_t k = b * H + j;
            if (k >= start && k < end) out[k - start] = u64_to_uniform(dp_pack64(w[2 * j], w[2 * j + 1]));
        }
    }
}

template <class G>
__device__ __forceinline__ void fill_normals(const G& g, uint64_t start, double* out, long long n) {
    if (n <= 0) return;
    constexpr int P = G::kWords / 4;  // uniform pairs (= pairs of normals) per block
    const uint64_t end = start + (uint64_t)n;
    const uint64_t last = ((end - 1) / 2) / P;
    for (uint64_t b = (start / 2) / P + first_thread(); b <= last; b += grid_threads()) {
        uint32_t w[G::kWords];
        g.block(b, w);
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const uint64_t k = 2 * (b * P + p);  // even index of this pair: words k, k+1
            if (k + 1 < start || k >= end) continue;
            double z0, z1;
            box_muller(u64_to_uniform(dp_pack64(w[4 * p], w[4 * p + 1])),
                       u64_to_uniform(dp_pack64(w[4 * p + 2], w[4 * p + 3])), &z0, &z1);
            if (k >= start) out[k - start] = z0;
            if (k + 1 < end) out[k + 1 - start] = z1;
        }
    }
}

__device__ __forceinline__ ChaChaGen load_chacha(const uint32_t* __restrict__ key8, unsigned long long stream) {
    ChaChaGen g;
#pragma unroll
    for (int i = 0; i < 8; ++i) g.key[i] = __ldg(key8 + i);
    g.stream = stream;
    return g;
}

}  // namespace

// key8: 8 words in device memory (ChaCha20.keyCopy()); the secret behind the privacy noise.
extern "C" __global__ void dp_chacha20_normals(const uint32_t* __restrict__ key8, unsigned long long stream,
                                               unsigned long long start, double* __restrict__ out, long long n) {
    fill_normals(load_chacha(key8, stream), start, out, n);
}

extern "C" __global__ void dp_chacha20_uniforms(const uint32_t* __restrict__ key8, unsigned long long stream,
                                                unsigned long long start, double* __restrict__ out, long long n) {
    fill_uniforms(load_chacha(key8, stream), start, out, n);
}

// Philox: simulations and benchmarks only, never privacy noise.
extern "C" __global__ void dp_philox_normals(unsigned long long key, unsigned long long stream,
                                             unsigned long long start, double* __restrict__ out, long long n) {
    const PhiloxGen g{key, stream};
    fill_normals(g, start, out, n);
}

extern "C" __global__ void dp_philox_uniforms(unsigned long long key, unsigned long long stream,
                                              unsigned long long start, double* __restrict__ out, long long n) {
    const PhiloxGen g{key, stream};
    fill_uniforms(g, start, out, n);
}
