package org.dpgauss.ndis;

import org.ejml.data.DMatrixRMaj;

/**
 * Theorem 4.2 (spec ndis §5.4) with EXACT components: for Loewner-comparable covariances (S1 >= S2 or S2 >= S1)
 * with Smax >= Smin,
 * <pre>
 *   bar1(eps) = inf_{eps1+eps2=eps} [ delta_{N(mu1,Smin),N(mu2,Smin)}(eps1) + e^{eps1} delta_{N(mu2,Smax),N(mu2,Smin)}(eps2) ]
 *   bar2(eps) = inf_{eps1+eps2=eps} [ delta_{N(mu1,Smax),N(mu1,Smin)}(eps1) + e^{eps1} delta_{N(mu1,Smin),N(mu2,Smin)}(eps2) ]
 *   delta_{X,Y}(eps) &lt;= min(bar1, bar2)
 * </pre>
 * The mean terms are Prop. 1 and the covariance terms (hard orientation, Smax first) are computed exactly by
 * {@link HockeyStickDivergence}, not by Lemma 2 (which covers only the easy orientation, spec §11.1). With exact
 * components it holds for both orientations of X (spec §5.4 [D]).
 */
public final class TriangleBound {

    /** Grid intervals of the eps-split (plus golden-section refinement). */
    public static final int SPLIT_INTERVALS = 64;
    /** Tolerance on the Loewner comparison of the generalized eigenvalues with 1. */
    public static final double ORDER_TOLERANCE = 1e-10;

    private TriangleBound() {
    }

    /**
     * @param epsilon eps >= 0
     * @throws IllegalArgumentException when the covariances are not Loewner comparable
     */
    public static double delta(HockeyStickDivergence divergence, Gaussian x, Gaussian y, double epsilon) {
        HockeyStickDivergence.checkEpsilon(epsilon);
        if (epsilon < 0) {
            throw new IllegalArgumentException("epsilon = " + epsilon + " must be >= 0 (Prop. 3 needs eps1, eps2 >= 0)");
        }
        NdisCoefficients.checkSameDimension(x, y);
        NdisCoefficients c = NdisCoefficients.compute(divergence.engine(), x, y);
        double[] tau = c.tauView();
        boolean xLarger = tau[0] >= 1 - ORDER_TOLERANCE;
        boolean yLarger = tau[tau.length - 1] <= 1 + ORDER_TOLERANCE;
        if (!xLarger && !yLarger) {
            throw new IllegalArgumentException("the covariances are not Loewner comparable: generalized eigenvalues"
                    + " range over [" + tau[0] + ", " + tau[tau.length - 1] + "], which contains 1 in its interior"
                    + " (Theorem 4.2 needs S1 >= S2 or S2 >= S1, spec ndis §5.4)");
        }
        DMatrixRMaj smax = xLarger ? x.covarianceView() : y.covarianceView();
        DMatrixRMaj smin = xLarger ? y.covarianceView() : x.covarianceView();
        double[] zero = new double[x.dimension()];
        HockeyStickDivergence.Prepared cov = divergence.prepare(Gaussian.of(zero, smax), Gaussian.of(zero, smin));
        HockeyStickDivergence.Prepared mean = divergence.prepare(Gaussian.of(x.meanView(), smin),
                Gaussian.of(y.meanView(), smin));
        double bar1 = EpsilonSplit.minimise(epsilon, SPLIT_INTERVALS,
                e1 -> mean.delta(e1) + Math.exp(e1) * cov.delta(epsilon - e1))[0];
        double bar2 = EpsilonSplit.minimise(epsilon, SPLIT_INTERVALS,
                e1 -> cov.delta(e1) + Math.exp(e1) * mean.delta(epsilon - e1))[0];
        return HockeyStickDivergence.clamp(Math.min(bar1, bar2));
    }
}
