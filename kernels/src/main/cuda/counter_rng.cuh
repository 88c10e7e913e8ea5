// counter_rng.cuh -- CUDA twin of org.dpgauss.random (cpu-fallback): ChaCha20 and Philox4x32-10
// counter-based generators and the derived 64-bit word / uniform / normal streams.
//
// The definitions must stay identical to CounterBasedGenerator.java, whose test vectors
// (RFC 8439, Random123 kat_vectors) are the reference:
//   word(k)    : out = block(k / H), j = k % H, H = words_per_block / 2,
//                word = out[2j] | (uint64_t)out[2j+1] << 32
//   uniform(k) : ((word(k) >> 12) + 0.5) * 2^-52          in [2^-53, 1 - 2^-53], bit-identical to Java
//   normal(k)  : u1 = uniform(2*(k/2)), u2 = uniform(2*(k/2)+1), r = sqrt(-2 log u1),
//                even k: r cos(2 pi u2), odd k: r sin(2 pi u2), both of the exact angle
// sqrt and the products are correctly rounded on both sides and no product here feeds an addition
// (so --fmad cannot contract anything), hence normals differ from Java only by the elementary
// functions, each within a few ulps of the true value on bit-identical arguments: CUDA's double log
// (<= 1 ulp) vs Java's series on the exactly reduced argument (<= 3 ulps), and CUDA's sincospi(2*u2)
// vs Java's polynomial on the exactly reduced angle (org.dpgauss.random.BoxMuller): normals agree to a
// few ulps.
#pragma once

#include <stdint.h>

#define DP_RNG_FN __device__ __forceinline__

// 2^-52, written in decimal so that no C++17 hex-float literal is needed.
#define DP_RNG_TWO_POW_M52 2.220446049250313080847263336181640625e-16

DP_RNG_FN uint32_t dp_rotl32(uint32_t x, int n) { return __funnelshift_l(x, x, n); }

DP_RNG_FN uint64_t dp_pack64(uint32_t lo, uint32_t hi) { return (uint64_t)lo | ((uint64_t)hi << 32); }

// ---------------------------------------------------------------------------------------------
// ChaCha20 (RFC 8439 block function, 20 rounds), original layout: words 0-3 constants, 4-11 key,
// 12/13 counter lo/hi, 14/15 stream lo/hi. out = rounds(state) + state.
// ---------------------------------------------------------------------------------------------
#define DP_CHACHA_QR(a, b, c, d)       \
    a += b; d = dp_rotl32(d ^ a, 16);  \
    c += d; b = dp_rotl32(b ^ c, 12);  \
    a += b; d = dp_rotl32(d ^ a, 8);   \
    c += d; b = dp_rotl32(b ^ c, 7);

DP_RNG_FN void chacha20_block(const uint32_t key[8], uint64_t counter, uint64_t stream, uint32_t out[16]) {
    const uint32_t s0 = 0x61707865u, s1 = 0x3320646eu, s2 = 0x79622d32u, s3 = 0x6b206574u;
    const uint32_t s12 = (uint32_t)counter, s13 = (uint32_t)(counter >> 32);
    const uint32_t s14 = (uint32_t)stream, s15 = (uint32_t)(stream >> 32);
    uint32_t x0 = s0, x1 = s1, x2 = s2, x3 = s3;
    uint32_t x4 = key[0], x5 = key[1], x6 = key[2], x7 = key[3];
    uint32_t x8 = key[4], x9 = key[5], x10 = key[6], x11 = key[7];
    uint32_t x12 = s12, x13 = s13, x14 = s14, x15 = s15;
#pragma unroll
    for (int i = 0; i < 10; ++i) {
        DP_CHACHA_QR(x0, x4, x8, x12)
        DP_CHACHA_QR(x1, x5, x9, x13)
        DP_CHACHA_QR(x2, x6, x10, x14)
        DP_CHACHA_QR(x3, x7, x11, x15)
        DP_CHACHA_QR(x0, x5, x10, x15)
        DP_CHACHA_QR(x1, x6, x11, x12)
        DP_CHACHA_QR(x2, x7, x8, x13)
        DP_CHACHA_QR(x3, x4, x9, x14)
    }
    out[0] = x0 + s0;       out[1] = x1 + s1;       out[2] = x2 + s2;       out[3] = x3 + s3;
    out[4] = x4 + key[0];   out[5] = x5 + key[1];   out[6] = x6 + key[2];   out[7] = x7 + key[3];
    out[8] = x8 + key[4];   out[9] = x9 + key[5];   out[10] = x10 + key[6]; out[11] = x11 + key[7];
    out[12] = x12 + s12;    out[13] = x13 + s13;    out[14] = x14 + s14;    out[15] = x15 + s15;
}

#undef DP_CHACHA_QR

// ---------------------------------------------------------------------------------------------
// Philox4x32-10 (Random123). Not cryptographic: simulations only, never privacy noise.
// ---------------------------------------------------------------------------------------------
DP_RNG_FN void philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    uint32_t k0 = key[0], k1 = key[1];
#pragma unroll
    for (int r = 0; r < 10; ++r) {
        if (r > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        const uint32_t hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
        const uint32_t hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
        c0 = hi1 ^ c1 ^ k0;
        c2 = hi0 ^ c3 ^ k1;
        c1 = lo1;
        c3 = lo0;
    }
    out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

// Philox4x32.block(counter): counter words (lo(counter), hi(counter), lo(stream), hi(stream)),
// key words (lo(key), hi(key)).
DP_RNG_FN void philox4x32_block(uint64_t key, uint64_t stream, uint64_t counter, uint32_t out[4]) {
    const uint32_t c[4] = {(uint32_t)counter, (uint32_t)(counter >> 32), (uint32_t)stream, (uint32_t)(stream >> 32)};
    const uint32_t k[2] = {(uint32_t)key, (uint32_t)(key >> 32)};
    philox4x32_10(c, k, out);
}

// ---------------------------------------------------------------------------------------------
// Derived streams.
// ---------------------------------------------------------------------------------------------

// (0,1) from a 64-bit word: midpoints of the 2^52 grid; every step is exact in double.
DP_RNG_FN double u64_to_uniform(uint64_t w) { return ((double)(w >> 12) + 0.5) * DP_RNG_TWO_POW_M52; }

// Box-Muller on one uniform pair: *z_even = normal(2m), *z_odd = normal(2m+1).
DP_RNG_FN void box_muller(double u1, double u2, double* z_even, double* z_odd) {
    const double r = sqrt(-2.0 * log(u1));
    double s, c;
    sincospi(2.0 * u2, &s, &c);  // the exact angle 2 pi u2 (2*u2 is exact), as BoxMuller.sinCos in Java
    *z_even = r * c;
    *z_odd = r * s;
}

DP_RNG_FN uint64_t chacha20_word(const uint32_t key[8], uint64_t stream, uint64_t k) {
    uint32_t w[16];
    chacha20_block(key, k / 8, stream, w);
    const int j = (int)(k % 8);
    return dp_pack64(w[2 * j], w[2 * j + 1]);
}

DP_RNG_FN uint64_t philox_word(uint64_t key, uint64_t stream, uint64_t k) {
    uint32_t w[4];
    philox4x32_block(key, stream, k / 2, w);
    return (k & 1) ? dp_pack64(w[2], w[3]) : dp_pack64(w[0], w[1]);
}

DP_RNG_FN double chacha20_uniform(const uint32_t key[8], uint64_t stream, uint64_t k) {
    return u64_to_uniform(chacha20_word(key, stream, k));
}

DP_RNG_FN double philox_uniform(uint64_t key, uint64_t stream, uint64_t k) {
    return u64_to_uniform(philox_word(key, stream, k));
}

// normal(k), one element; the kernels use the block-wise path in counter_rng.cu instead.
DP_RNG_FN double chacha20_normal(const uint32_t key[8], uint64_t stream, uint64_t k) {
    const uint64_t first = k & ~(uint64_t)1;
    double z0, z1;
    box_muller(chacha20_uniform(key, stream, first), chacha20_uniform(key, stream, first + 1), &z0, &z1);
    return (k & 1) ? z1 : z0;
}

DP_RNG_FN double philox_normal(uint64_t key, uint64_t stream, uint64_t k) {
    const uint64_t first = k & ~(uint64_t)1;
    double z0, z1;
    box_muller(philox_uniform(key, stream, first), philox_uniform(key, stream, first + 1), &z0, &z1);
    return (k & 1) ? z1 : z0;
}
