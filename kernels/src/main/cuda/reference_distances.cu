// reference_distances.cu -- twin of org.dpgauss.cpu.ReferenceDistances: for each row x_i the `keep`
// largest squared distances to the reference rows, descending. The n x |R| distance matrix is never
// formed: one thread per row streams the reference set (all threads of a warp read the same
// reference entry: a broadcast) and keeps a min-heap of size keep in its own output row, which a
// heap sort finally leaves in descending order.
//
// Distances are direct sums sum_c (x_c - r_c)^2 without FMA contraction, bit-identical to the
// values the CPU twin returns (it re-computes its kept distances the same way). The heap uses the
// CPU twin's insertion rule (replace the minimum when strictly larger), so the kept values agree
// with the CPU exactly unless two distances tie within rounding at the keep-th place.
#include "dp_common.cuh"

DP_FN void dp_sift_down(double* h, int size, int pos, double v) {
    while (true) {
        int child = 2 * pos + 1;
        if (child >= size) break;
        if (child + 1 < size && h[child + 1] < h[child]) child++;
        if (h[child] >= v) break;
        h[pos] = h[child];
        pos = child;
    }
    h[pos] = v;
}

extern "C" __global__ void dp_largest_reference_distances(const double* __restrict__ x, long long n, int d,
                                                          const double* __restrict__ ref, int m, int keep,
                                                          double* __restrict__ out) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        const double* xi = x + i * d;
        double* h = out + i * keep;
        int size = 0;
        for (int j = 0; j < m; ++j) {
            const double* rj = ref + (long long)j * d;
            double e = 0.0;
            for (int c = 0; c < d; ++c) e = dp_sq_diff_add(e, xi[c], rj[c]);
            if (size < keep) {
                int pos = size++;  // sift up
                while (pos > 0) {
                    const int parent = (pos - 1) >> 1;
                    if (h[parent] <= e) break;
                    h[pos] = h[parent];
                    pos = parent;
                }
                h[pos] = e;
            } else if (e > h[0]) {
                dp_sift_down(h, keep, 0, e);
            }
        }
        // heap sort of a min-heap: the minimum goes to the back each time -> descending order
        for (int end = keep - 1; end > 0; --end) {
            const double top = h[0];
            const double last = h[end];
            h[end] = top;
            dp_sift_down(h, end, 0, last);
        }
    }
}
