// cuda_emu.hpp -- runs the dpgauss CUDA kernels on the host, to check their index arithmetic, tiling,
// chunk carrying, heaps and exact-arithmetic claims where no GPU exists. Blocks run one after another;
// the threads of a block run as std::threads with a std::barrier for __syncthreads(), so __shared__
// arrays can be function statics (one block at a time). Compile with -ffp-contract=off so that, as on
// the device with __dadd_rn / __dmul_rn, no product is fused into an FMA unless fma() is called.
// Not part of the Maven build: kernels/src/test/cuda-emulation/run.sh (needs g++ with C++20).
#pragma once

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};

inline thread_local dim3 threadIdx;
inline thread_local dim3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;
inline thread_local std::barrier<>* emu_barrier = nullptr;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static

inline void __syncthreads() { emu_barrier->arrive_and_wait(); }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline uint32_t __funnelshift_l(uint32_t lo, uint32_t hi, int n) {
    n &= 31;
    return n == 0 ? hi : (hi << n) | (lo >> (32 - n));
}
inline uint32_t __umulhi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
template <class T>
inline T __ldg(const T* p) { return *p; }
inline int atomicAdd(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
using std::max;
using std::min;

/** Launches kernel(args...) on grid x block, blocks in order, threads of a block concurrently. */
template <class... P, class... A>
void emu_launch(dim3 grid, dim3 block, void (*kernel)(P...), A... args) {
    gridDim = grid;
    blockDim = block;
    const unsigned nt = block.x * block.y * block.z;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                std::barrier<> bar((std::ptrdiff_t)nt);
                std::vector<std::thread> ts;
                ts.reserve(nt);
                for (unsigned tz = 0; tz < block.z; ++tz)
                    for (unsigned ty = 0; ty < block.y; ++ty)
                        for (unsigned tx = 0; tx < block.x; ++tx)
                            ts.emplace_back([=, &bar] {
                                threadIdx = dim3{tx, ty, tz};
                                blockIdx = dim3{bx, by, bz};
                                emu_barrier = &bar;
                                kernel(args...);
                            });
                for (auto& t : ts) t.join();
            }
}
