// largest_good_subset_peeling.cu -- the device side of one peeling round of
// org.dpgauss.cpu.LargestGoodSubsetPeeling (spec unbounded-gaussian-sampling §3.3). The data stay on
// the device; per round the host gets the d x d Gram of the active rows (dp_weighted_gram), factors it,
// sends back M = L^{-1}, and the norms q of the active rows are computed on the device (dp_whiten +
// dp_row_squared_norms). This kernel turns q into one verdict byte per active row:
//   0 keep (q < lo), 1 remove (q > hi), 2 undecided (lo <= q <= hi, rounding could flip it)
// with lo < lambda < hi the band the host derives from the conditioning of the factor; the counts
// of removed and undecided rows come back in counters[0..1]. An undecided row makes the host finish
// the peeling with the CPU twin from the current set, so GPU and CPU always return the same set.
#include "dp_common.cuh"

extern "C" __global__ void dp_peel_verdicts(const double* __restrict__ q, long long count, double lo, double hi,
                                            unsigned char* __restrict__ verdict, int* __restrict__ counters) {
    int removed = 0, undecided = 0;
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < count;
         k += (long long)gridDim.x * blockDim.x) {
        const double v = q[k];
        unsigned char s;
        if (v > hi) {
            s = 1;
            removed++;
        } else if (v >= lo || v != v) {  // NaN: let the host decide
            s = 2;
            undecided++;
        } else {
            s = 0;
        }
        verdict[k] = s;
    }
    if (removed) atomicAdd(&counters[0], removed);
    if (undecided) atomicAdd(&counters[1], undecided);
}
