package org.dpgauss.gx2;

/**
 * The generalized chi-square distribution {@code Q = sum_j w_j chi2'(k_j, nc_j) + sigma Z} (spec ndis §1 Def. 1,
 * §4): weights of either sign, integer degrees of freedom, non-centralities (sums of squared means) and an
 * independent normal term.
 *
 * <p>API fixed for the session's parallel work; the implementation is being written.
 */
public final class GeneralizedChiSquare {

    private GeneralizedChiSquare() {
    }

    /**
     * @param weights       nonzero finite weights w_j, either sign
     * @param dof           degrees of freedom k_j >= 1
     * @param noncentrality non-centralities nc_j >= 0 (null: all zero)
     * @param sigma         coefficient of the normal term, >= 0
     * @return the distribution, with terms of equal weight merged
     */
    public static GeneralizedChiSquare of(double[] weights, int[] dof, double[] noncentrality, double sigma) {
        throw new UnsupportedOperationException("being implemented");
    }

    /** @return P[Q <= x] */
    public double cdf(double x) {
        throw new UnsupportedOperationException("being implemented");
    }

    /** @return P[Q > x], computed directly (never as 1 - cdf) */
    public double sf(double x) {
        throw new UnsupportedOperationException("being implemented");
    }

    /** @return P[Q <= x] with a bound on its absolute error */
    public Gx2Probability cdfWithError(double x) {
        throw new UnsupportedOperationException("being implemented");
    }

    /** @return P[Q > x] with a bound on its absolute error */
    public Gx2Probability sfWithError(double x) {
        throw new UnsupportedOperationException("being implemented");
    }
}
