package org.dpgauss.ndis;

/**
 * Lemma 2 (spec ndis §5.2): for X = N(mu, S1), Y = N(mu, S2) with equal means and S2 >= S1 (X the LESS spread,
 * the easy orientation), {@code delta_{X,Y}(eps) = 0} exactly for {@code eps >= (1/2) log(det S2 / det S1)} and
 * otherwise {@code delta_{X,Y}(eps) <= inf_s exp(s f - 1/2 sum log(1 + 2 s (1 - tau_i))) - e^eps (1 - inf_u
 * exp(-u f - 1/2 sum log(1 - 2 u (1 - tau_i)/tau_i)))}, {@code f = log(det S2/det S1) - 2 eps}. Valid but loose
 * (spec §5.2 "numerical quality").
 */
public final class EasyDirectionBound {

    /** Tolerance on tau_i &lt;= 1 (relative rounding of the eigendecomposition). */
    public static final double ORDER_TOLERANCE = 1e-10;

    private EasyDirectionBound() {
    }

    /**
     * @throws IllegalArgumentException when the means differ or S2 >= S1 fails (some tau_i > 1)
     */
    public static double delta(HockeyStickDivergence divergence, Gaussian x, Gaussian y, double epsilon) {
        HockeyStickDivergence.checkEpsilon(epsilon);
        if (!x.sameMean(y)) {
            throw new IllegalArgumentException("Lemma 2 needs equal means (spec ndis §5.2)");
        }
        NdisCoefficients c = NdisCoefficients.compute(divergence.engine(), x, y);
        return fromEigenvalues(c.tauView(), epsilon);
    }

    /** The bound from the generalized eigenvalues tau_i in (0, 1]. */
    public static double fromEigenvalues(double[] tau, double epsilon) {
        double[] ell = new double[tau.length];
        double[] mult = new double[tau.length];
        for (int i = 0; i < tau.length; i++) {
            if (!(tau[i] > 0) || tau[i] > 1 + ORDER_TOLERANCE) {
                throw new IllegalArgumentException("tau[" + i + "] = " + tau[i] + " is outside (0, 1]: Lemma 2 needs"
                        + " S2 >= S1 (X the less spread distribution, spec ndis §5.2)");
            }
            ell[i] = Math.max(0, -Math.log(tau[i]));
            mult[i] = 1;
        }
        return CovarianceChernoff.easy(epsilon, ell, mult);
    }

    /** The zero-leakage threshold {@code (1/2) log(det S2 / det S1) = -(1/2) sum log tau_i}. */
    public static double threshold(double[] tau) {
        double s = 0;
        for (double t : tau) {
            s -= Math.log(t);
        }
        return 0.5 * s;
    }
}
