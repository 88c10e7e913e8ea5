package org.dpgauss.privacy.accounting;

import java.util.List;
import org.dpgauss.ndis.DeltaEvaluation;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.HockeyStickDivergence;
import org.ejml.data.DMatrixRMaj;

/**
 * Exact composition of Gaussian-output releases given by dominating pairs (spec ndis): the composition of
 * mechanisms with dominating pairs {@code (P_i, Q_i)} has the dominating pair {@code (P_1 x ... x P_k,
 * Q_1 x ... x Q_k)} (Zhu, Dong &amp; Wang, "Optimal Accounting of Differential Privacy via Characteristic
 * Function", AISTATS 2022; adaptive composition included), and a product of Gaussians is the Gaussian
 * with the stacked means and the block-diagonal covariance. A Gaussian mechanism with {@code tau = Delta/sigma}
 * enters as the one-dimensional pair {@code (N(0, 1), N(tau, 1))}. The privacy profile is
 * {@code max(delta_{P,Q}(eps), delta_{Q,P}(eps))}, each from {@link HockeyStickDivergence} plus its stated
 * absolute error bound, so the epsilon found is valid.
 */
final class GaussianPairComposition {

    /** Relative width at which the epsilon bisection stops (the feasible end is returned). */
    private static final double RELATIVE_TOLERANCE = 1e-9;
    /** Above this epsilon the composition is reported as unreachable. */
    private static final double MAX_EPSILON = 1e6;

    private final HockeyStickDivergence.Prepared forward;
    private final HockeyStickDivergence.Prepared backward;
    private final int dimension;

    private GaussianPairComposition(Gaussian p, Gaussian q) {
        HockeyStickDivergence h = HockeyStickDivergence.cpu();
        this.forward = h.prepare(p, q);
        this.backward = h.prepare(q, p);
        this.dimension = p.dimension();
    }

    /** Stacks the pairs (and the Gaussian mechanisms as 1-D pairs) into one pair. */
    static GaussianPairComposition of(List<Release> pairs, List<Double> taus) {
        int d = taus.size();
        for (Release r : pairs) {
            d += r.onDataset().dimension();
        }
        double[] mp = new double[d];
        double[] mq = new double[d];
        DMatrixRMaj cp = new DMatrixRMaj(d, d);
        DMatrixRMaj cq = new DMatrixRMaj(d, d);
        int at = 0;
        for (Release r : pairs) {
            place(r.onNeighbour(), mq, cq, at);
            at = place(r.onDataset(), mp, cp, at);
        }
        for (double tau : taus) {
            mq[at] = tau;
            cp.set(at, at, 1);
            cq.set(at, at, 1);
            at++;
        }
        return new GaussianPairComposition(Gaussian.of(mp, cp), Gaussian.of(mq, cq));
    }

    /** Copies g into the block starting at {@code at}; returns the next free index. */
    private static int place(Gaussian g, double[] mean, DMatrixRMaj cov, int at) {
        double[] m = g.mean();
        double[][] c = g.covarianceArray();
        for (int i = 0; i < m.length; i++) {
            mean[at + i] = m[i];
            for (int j = 0; j < m.length; j++) {
                cov.set(at + i, at + j, c[i][j]);
            }
        }
        return at + m.length;
    }

    /** @return the stacked dimension */
    int dimension() {
        return dimension;
    }

    /** The privacy profile at eps, rounded up by the evaluations' error bounds. */
    double delta(double epsilon) {
        return Math.max(upper(forward.evaluate(epsilon)), upper(backward.evaluate(epsilon)));
    }

    private static double upper(DeltaEvaluation e) {
        return Math.min(1.0, e.delta() + e.absoluteErrorBound());
    }

    /**
     * The smallest epsilon (to a relative 1e-9, feasible end) with {@code delta(epsilon) <= target}, or
     * {@code +infinity} when none below 1e6 exists (e.g. disjoint supports).
     */
    double epsilon(double target) {
        if (delta(0) <= target) {
            return 0;
        }
        double lo = 0;
        double hi = 1;
        while (delta(hi) > target) {
            lo = hi;
            hi *= 2;
            if (hi > MAX_EPSILON) {
                return Double.POSITIVE_INFINITY;
            }
        }
        while (hi - lo > RELATIVE_TOLERANCE * hi) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (delta(mid) <= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }
}
