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
    private static final double RELATIVE_TOLERANCE = 1e-7;
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

    /** An evaluation rounded up by its stated absolute error bound. */
    private static double upper(DeltaEvaluation e) {
        return Math.min(1.0, e.delta() + e.absoluteErrorBound());
    }

    /** Ordering that exceeded the target last (checked first: one evaluation then decides infeasibility). */
    private boolean backwardFirst;

    /**
     * Whether {@code max(delta_{P,Q}(eps), delta_{Q,P}(eps)) <= target}, also returning the binding value in
     * {@code out[0]}. Evaluations cost up to seconds for general pairs, so the ordering that was binding last is
     * evaluated first and the other one only when the first is feasible.
     */
    private boolean feasible(double epsilon, double target, double[] out) {
        HockeyStickDivergence.Prepared first = backwardFirst ? backward : forward;
        HockeyStickDivergence.Prepared second = backwardFirst ? forward : backward;
        double a = upper(first.evaluate(epsilon));
        if (a > target) {
            out[0] = a;
            return false;
        }
        double b = upper(second.evaluate(epsilon));
        out[0] = Math.max(a, b);
        if (b > target) {
            backwardFirst = !backwardFirst;
            return false;
        }
        return true;
    }

    /**
     * The smallest epsilon (to a relative {@value #RELATIVE_TOLERANCE}; the feasible end of the bracket is
     * returned, so the result is always valid) with {@code delta(epsilon) <= target}, or {@code +infinity} when
     * none below 1e6 exists (e.g. disjoint supports). The bracket is found by doubling and narrowed by the
     * Illinois variant of regula falsi on {@code ln delta(eps) - ln target}, which is nearly linear in eps for
     * Gaussian pairs, with a bisection step whenever an interpolation fails to shrink the bracket by half.
     */
    double epsilon(double target) {
        double[] v = new double[1];
        if (feasible(0, target, v)) {
            return 0;
        }
        double lo = 0;
        double fLo = Math.log(v[0]) - Math.log(target); // > 0: infeasible side
        double hi = 1;
        double fHi;
        while (true) {
            if (feasible(hi, target, v)) {
                fHi = Math.log(Math.max(v[0], Double.MIN_NORMAL)) - Math.log(target); // <= 0
                break;
            }
            lo = hi;
            fLo = Math.log(v[0]) - Math.log(target);
            hi *= 2;
            if (hi > MAX_EPSILON) {
                return Double.POSITIVE_INFINITY;
            }
        }
        int side = 0; // Illinois: halve the stale end's function value when the same end moves twice
        for (int i = 0; i < 200 && hi - lo > RELATIVE_TOLERANCE * hi; i++) {
            double width = hi - lo;
            double x = hi - fHi * (hi - lo) / (fHi - fLo);
            if (!(x > lo && x < hi) || Double.isNaN(x)) {
                x = 0.5 * (lo + hi);
            }
            // keep the step away from the ends so that the bracket always shrinks
            double margin = 0.01 * width;
            x = Math.min(hi - margin, Math.max(lo + margin, x));
            if (feasible(x, target, v)) {
                hi = x;
                fHi = Math.log(Math.max(v[0], Double.MIN_NORMAL)) - Math.log(target);
                if (side == 1) {
                    fLo /= 2;
                }
                side = 1;
            } else {
                lo = x;
                fLo = Math.log(v[0]) - Math.log(target);
                if (side == -1) {
                    fHi /= 2;
                }
                side = -1;
            }
            if (hi - lo > 0.5 * width && i % 3 == 2) {
                // slow progress: one bisection step
                double mid = 0.5 * (lo + hi);
                if (feasible(mid, target, v)) {
                    hi = mid;
                    fHi = Math.log(Math.max(v[0], Double.MIN_NORMAL)) - Math.log(target);
                } else {
                    lo = mid;
                    fLo = Math.log(v[0]) - Math.log(target);
                }
            }
        }
        return hi;
    }
}
