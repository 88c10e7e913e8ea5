// kernels_emu_test.cpp -- the dpgauss kernels run on the host (cuda_emu.hpp) against naive references:
// exact where the design claims exactness (neighbour counts, direct distances, chunk-order independence of
// the block layout, generator words), 1e-12 relative elsewhere. Prints normals for the Java comparison
// done by run.sh. Exit status 0 when every check passes.
#include "cuda_emu.hpp"

#include <cstdio>
#include <random>
#include <string>

#include "../../main/cuda/counter_rng.cu"
#include "../../main/cuda/gaussian_projection.cu"
#include "../../main/cuda/largest_good_subset_peeling.cu"
#include "../../main/cuda/mahalanobis_norms.cu"
#include "../../main/cuda/neighbour_counts.cu"
#include "../../main/cuda/reference_distances.cu"
#include "../../main/cuda/weighted_gram.cu"
#include "../../main/cuda/whitening.cu"

static int failures = 0;
static void check(bool ok, const std::string& what) {
    if (!ok) {
        failures++;
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    }
}
static bool close(double a, double b, double tol) { return std::fabs(a - b) <= tol; }

static std::vector<double> gaussian(long n, int d, unsigned seed) {
    std::mt19937_64 g(seed);
    std::normal_distribution<double> nd;
    std::vector<double> x(n * d);
    for (long i = 0; i < n; ++i)
        for (int j = 0; j < d; ++j) x[i * d + j] = nd(g) * (1 + j);
    return x;
}

// ---- the host's ChunkedSum (CudaDevice.java), on host memory --------------------------------------
static const long CHUNK = 512;
struct ChunkedSum {
    long len;
    std::vector<double> total, carry;
    bool carrying = false;
    long position = 0;
    explicit ChunkedSum(long l) : len(l), total(l, 0.0), carry(l, 0.0) {}
    template <class Launch>
    void launch(long count, unsigned gx, unsigned gy, Launch kernel) {
        if (count == 0) return;
        long first = position, base = first / CHUNK;
        int chunks = (int)((first + count - 1) / CHUNK - base + 1);
        std::vector<double> partial(chunks * len, 0.0);
        kernel(dim3{gx, gy, (unsigned)chunks}, first, base, carrying ? carry.data() : nullptr, partial.data());
        bool open = (first + count) % CHUNK != 0;
        int finished = open ? chunks - 1 : chunks;
        if (finished > 0) emu_launch(dim3{1, 1, 1}, dim3{64, 1, 1}, dp_fold_partials, (const double*)partial.data(), finished, len, total.data());
        if (open) std::memcpy(carry.data(), partial.data() + (long)(chunks - 1) * len, len * 8);
        carrying = open;
        position += count;
    }
    std::vector<double> finish() {
        if (carrying) emu_launch(dim3{1, 1, 1}, dim3{64, 1, 1}, dp_fold_partials, (const double*)carry.data(), 1, len, total.data());
        return total;
    }
};

// Gram of rows in blocks of blockRows, with weights; returns the full symmetric matrix
static std::vector<double> gram(const std::vector<double>& y, long n, int d, long blockRows, const std::vector<double>* w) {
    ChunkedSum s((long)d * d);
    unsigned tiles = (d + 15) / 16;
    for (long b0 = 0; b0 < n; b0 += blockRows) {
        long cnt = std::min(blockRows, n - b0);
        const double* data = y.data() + b0 * d;
        const double* wb = w ? w->data() + b0 : nullptr;
        s.launch(cnt, tiles, tiles, [&](dim3 grid, long first, long base, const double* init0, double* partial) {
            emu_launch(grid, dim3{16, 16, 1}, dp_weighted_gram, data, d, (const int*)nullptr, wb, cnt, first, CHUNK, base, init0, partial);
        });
    }
    std::vector<double> t = s.finish();
    for (int p = 0; p < d; ++p)
        for (int q = 0; q < p; ++q) t[q * d + p] = t[p * d + q];
    return t;
}

static void testGram() {
    long n = 1300;
    int d = 19;  // two tiles, a partial one
    auto y = gaussian(n, d, 1);
    std::vector<double> w(n);
    for (long i = 0; i < n; ++i) w[i] = (i % 7) / 3.0;
    std::vector<double> ref(d * d, 0.0);
    double scale = 0;
    for (long i = 0; i < n; ++i)
        for (int p = 0; p < d; ++p)
            for (int q = 0; q < d; ++q) ref[p * d + q] += w[i] * y[i * d + p] * y[i * d + q];
    for (double v : ref) scale = std::max(scale, std::fabs(v));
    auto a = gram(y, n, d, 1300, &w);
    auto b = gram(y, n, d, 97, &w);
    auto c = gram(y, n, d, 512, &w);
    for (int e = 0; e < d * d; ++e) {
        check(close(a[e], ref[e], 1e-12 * scale), "Gram vs naive at " + std::to_string(e));
        check(a[e] == b[e] && a[e] == c[e], "Gram bit-identical for block sizes 1300 / 97 / 512 at " + std::to_string(e));
    }
    for (int p = 0; p < d; ++p)
        for (int q = 0; q < d; ++q) check(a[p * d + q] == a[q * d + p], "Gram symmetric");
    // row list (every third row dropped), one block
    std::vector<int> rows;
    for (int i = 0; i < n; ++i)
        if (i % 3 != 1) rows.push_back(i);
    ChunkedSum s((long)d * d);
    s.launch((long)rows.size(), 2, 2, [&](dim3 grid, long first, long base, const double* init0, double* partial) {
        emu_launch(grid, dim3{16, 16, 1}, dp_weighted_gram, (const double*)y.data(), d, (const int*)rows.data(),
                   (const double*)nullptr, (long long)rows.size(), first, CHUNK, base, init0, partial);
    });
    auto g = s.finish();
    std::vector<double> r2(d * d, 0.0);
    for (int i : rows)
        for (int p = 0; p < d; ++p)
            for (int q = 0; q <= p; ++q) r2[p * d + q] += y[i * d + p] * y[i * d + q];
    for (int p = 0; p < d; ++p)
        for (int q = 0; q <= p; ++q) check(close(g[p * d + q], r2[p * d + q], 1e-12 * scale), "Gram of a row list");
}

static void testWhitenAndNorms() {
    long n = 70;
    int d = 21;
    auto x = gaussian(n, d, 2);
    // M: a lower-triangular matrix (upper entries set to garbage to check they are ignored)
    std::vector<double> m(d * d);
    std::mt19937_64 g(3);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j) m[i * d + j] = j <= i ? u(g) + (i == j ? 2 : 0) : 1e300;
    std::vector<int> rows = {69, 0, 35, 35, 1};
    std::vector<double> z(rows.size() * d), q(rows.size());
    emu_launch(dim3{(unsigned)((rows.size() + 15) / 16), (unsigned)((d + 15) / 16), 1}, dim3{16, 16, 1}, dp_whiten,
               (const double*)x.data(), d, (const int*)rows.data(), (long long)rows.size(), (const double*)m.data(), z.data());
    emu_launch(dim3{1, 1, 1}, dim3{32, 1, 1}, dp_row_squared_norms, (const double*)z.data(), d, (long long)rows.size(), q.data());
    for (size_t k = 0; k < rows.size(); ++k) {
        double s2 = 0;
        for (int j = 0; j < d; ++j) {
            double v = 0;
            for (int c = 0; c <= j; ++c) v += m[j * d + c] * x[rows[k] * d + c];
            check(close(z[k * d + j], v, 1e-12 * (1 + std::fabs(v))), "whitened entry");
            s2 += v * v;
        }
        check(close(q[k], s2, 1e-12 * s2), "squared norm");
    }
}

static void testReferenceDistances() {
    long n = 300;
    int d = 5, m = 37, keep = 6;
    auto x = gaussian(n, d, 4);
    auto r = gaussian(m, d, 5);
    std::vector<double> out(n * keep);
    emu_launch(dim3{2, 1, 1}, dim3{128, 1, 1}, dp_largest_reference_distances, (const double*)x.data(), (long long)n, d,
               (const double*)r.data(), m, keep, out.data());  // 256 threads < n: grid-stride
    for (long i = 0; i < n; ++i) {
        std::vector<double> all(m);
        for (int j = 0; j < m; ++j) {
            double e = 0;
            for (int c = 0; c < d; ++c) {
                double v = x[i * d + c] - r[j * d + c];
                e += v * v;
            }
            all[j] = e;
        }
        std::sort(all.begin(), all.end());
        for (int s = 0; s < keep; ++s) check(out[i * keep + s] == all[m - 1 - s], "kept distance (bit-exact)");
    }
}

static void testNeighbourCounts() {
    // integer lattice with duplicates: exact ties at radius 1 and sqrt(2)
    int side = 11;
    long n = side * side + 2;
    int d = 2;
    std::vector<double> x(n * d);
    for (int i = 0; i < side * side; ++i) {
        x[i * 2] = i / side;
        x[i * 2 + 1] = i % side;
    }
    x[(n - 2) * 2] = 0; x[(n - 2) * 2 + 1] = 0;
    x[(n - 1) * 2] = 5; x[(n - 1) * 2 + 1] = 5;
    auto g = gaussian(200, 9, 6);  // a second, d = 9 (two column steps)
    for (int t = 0; t < 2; ++t) {
        const std::vector<double>& xs = t == 0 ? x : g;
        long nn = t == 0 ? n : 200;
        int dd = t == 0 ? 2 : 9;
        for (double radius : {0.0, 1.0, std::sqrt(2.0), 3.0, 9.0}) {
            double r2 = radius * radius;
            // blocks of 50 rows: every pair of blocks, as the host does
            std::vector<int> counts(nn, 0);
            long br = 50;
            for (long bi = 0; bi < nn; bi += br)
                for (long bk = 0; bk < nn; bk += br) {
                    long ni = std::min(br, nn - bi), nk = std::min(br, nn - bk);
                    emu_launch(dim3{(unsigned)((ni + 63) / 64), (unsigned)((nk + 63) / 64), 1}, dim3{16, 16, 1},
                               dp_neighbour_counts, (const double*)xs.data() + bi * dd, (long long)ni,
                               (const double*)xs.data() + bk * dd, (long long)nk, dd, r2, counts.data() + bi);
                }
            for (long i = 0; i < nn; ++i) {
                int c = 0;
                for (long k = 0; k < nn; ++k) {
                    double e = 0;
                    for (int q = 0; q < dd; ++q) {
                        double v = xs[i * dd + q] - xs[k * dd + q];
                        e += v * v;
                    }
                    c += e <= r2;
                }
                check(counts[i] == c, "neighbour count, radius " + std::to_string(radius) + " row " + std::to_string(i));
            }
        }
    }
}

static void testProjectionAndNormals() {
    long n = 1100;
    int d = 7, r = 5;
    auto x = gaussian(n, d, 7);
    uint32_t key8[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    unsigned long long stream = 9, first = 13;
    // normals: block-wise kernels vs the one-element reference of counter_rng.cuh, odd start
    for (int gen = 0; gen < 2; ++gen) {
        long cnt = 1001;
        unsigned long long start = 3;
        std::vector<double> out(cnt);
        if (gen == 0)
            emu_launch(dim3{2, 1, 1}, dim3{32, 1, 1}, dp_projection_normals_chacha20, (const uint32_t*)key8, stream, start, out.data(), (long long)cnt);
        else
            emu_launch(dim3{2, 1, 1}, dim3{32, 1, 1}, dp_projection_normals_philox, 77ULL, stream, start, out.data(), (long long)cnt);
        for (long k = 0; k < cnt; ++k) {
            double e = gen == 0 ? chacha20_normal(key8, stream, start + k) : philox_normal(77ULL, stream, start + k);
            check(out[k] == e, "normal " + std::to_string(k) + " generator " + std::to_string(gen));
        }
        // the counter_rng.cu fill kernel gives the same numbers
        std::vector<double> out2(cnt);
        if (gen == 0)
            emu_launch(dim3{3, 1, 1}, dim3{32, 1, 1}, dp_chacha20_normals, (const uint32_t*)key8, stream, start, out2.data(), (long long)cnt);
        else
            emu_launch(dim3{3, 1, 1}, dim3{32, 1, 1}, dp_philox_normals, 77ULL, stream, start, out2.data(), (long long)cnt);
        check(out == out2, "fill kernels agree, generator " + std::to_string(gen));
    }
    // print normals for run.sh's comparison with the Java generators
    FILE* f = std::fopen("emu-normals.txt", "w");
    for (unsigned long long k = 0; k < 64; ++k)
        std::fprintf(f, "%llu %.17g %.17g %016llx\n", k, chacha20_normal(key8, stream, k), philox_normal(77ULL, stream, k),
                     (unsigned long long)chacha20_word(key8, stream, k));
    std::fclose(f);
    // projection D^T G in two layouts (sub-blocks of 1100 and 300 rows): bit-identical, and = naive
    auto project = [&](long sub) {
        ChunkedSum s((long)d * r);
        for (long s0 = 0; s0 < n; s0 += sub) {
            long ns = std::min(sub, n - s0), nG = ns * r;
            std::vector<double> gbuf(nG);
            emu_launch(dim3{4, 1, 1}, dim3{32, 1, 1}, dp_projection_normals_chacha20, (const uint32_t*)key8, stream,
                       (unsigned long long)(first + s0 * r), gbuf.data(), (long long)nG);
            const double* data = x.data() + s0 * d;
            s.launch(ns, (r + 15) / 16, (d + 15) / 16, [&](dim3 grid, long f0, long base, const double* init0, double* partial) {
                emu_launch(grid, dim3{16, 16, 1}, dp_projection_cross, data, d, (const double*)gbuf.data(), r, (long long)ns, f0,
                           CHUNK, base, init0, partial);
            });
        }
        return s.finish();
    };
    auto a = project(1100), b = project(300);
    std::vector<double> ref(d * r, 0.0);
    double scale = 0;
    for (long i = 0; i < n; ++i)
        for (int j = 0; j < r; ++j) {
            double gij = chacha20_normal(key8, stream, first + i * r + j);
            for (int p = 0; p < d; ++p) ref[p * r + j] += x[i * d + p] * gij;
        }
    for (double v : ref) scale = std::max(scale, std::fabs(v));
    for (int e = 0; e < d * r; ++e) {
        check(a[e] == b[e], "projection bit-identical for sub-blocks 1100 / 300");
        check(close(a[e], ref[e], 1e-12 * scale), "projection vs naive");
    }
}

static void testPeelVerdicts() {
    std::vector<double> q = {1.0, 9.999, 10.0, 10.0001, 11, NAN, 0};
    std::vector<unsigned char> v(q.size());
    int counters[2] = {0, 0};
    emu_launch(dim3{1, 1, 1}, dim3{4, 1, 1}, dp_peel_verdicts, (const double*)q.data(), (long long)q.size(), 9.9995, 10.00005,
               v.data(), counters);
    std::vector<unsigned char> want = {0, 0, 2, 1, 1, 2, 0};  // keep below lo, remove above hi, NaN undecided
    check(v == want, "verdicts");
    check(counters[0] == 2 && counters[1] == 2, "verdict counts");
}

int main() {
    testGram();
    testWhitenAndNorms();
    testReferenceDistances();
    testNeighbourCounts();
    testProjectionAndNormals();
    testPeelVerdicts();
    if (failures) {
        std::fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    std::printf("all kernel emulation checks passed\n");
    return 0;
}
