package org.dpgauss.mean.anisotropic;

/**
 * The output of {@link FindKthLargestVariance} and {@link VarianceSum} (spec anisotropic-mean-estimation §4.4,
 * §4.5): a power of four {@code 4^b} (or 0 for the bin {@code B_{-inf}}), or {@link #FAIL} (bottom, carrying
 * nothing). Immutable.
 */
public final class VarianceEstimate {

    /** Bottom: the stable histogram's maximum did not reach its threshold. */
    public static final VarianceEstimate FAIL = new VarianceEstimate(0);

    private final long bin;

    private VarianceEstimate(long bin) {
        this.bin = bin;
    }

    static VarianceEstimate from(StableHistogram.Result result) {
        return result.isFail() ? FAIL : new VarianceEstimate(result.bin());
    }

    /** @return true for bottom */
    public boolean isFail() {
        return this == FAIL;
    }

    /**
     * @return the estimate {@code 4^b} ({@code 0} for {@link Base4Bins#ZERO_BIN})
     * @throws IllegalStateException on {@link #FAIL}
     */
    public double value() {
        return Base4Bins.lowerEdge(bin());
    }

    /**
     * @return the released bin {@code b}
     * @throws IllegalStateException on {@link #FAIL}
     */
    public long bin() {
        if (isFail()) {
            throw new IllegalStateException("the variance estimate failed (bottom): there is no value");
        }
        return bin;
    }

    @Override
    public String toString() {
        return isFail() ? "FAIL" : "4^" + (bin == Base4Bins.ZERO_BIN ? "-inf" : bin) + " = " + value();
    }
}
