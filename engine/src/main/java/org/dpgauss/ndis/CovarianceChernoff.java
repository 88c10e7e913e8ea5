package org.dpgauss.ndis;

import java.util.function.DoubleUnaryOperator;

/**
 * Chernoff bounds on the covariance-only hockey-stick divergence {@code delta_{N(0,R),N(0,I)}(eps)} written in
 * terms of the log-eigenvalue magnitudes {@code l_i = |log tau_i| >= 0} with multiplicities (spec ndis §5.2
 * Lemma 2, §6.5 Def. 6, §6.5.4):
 * <pre>
 *   phi_s(l) = s l - 1/2 log(1 + 2 s (1 - e^{-l}))        (s >= 0)
 *   psi_u(l) = -u l - 1/2 log(1 - 2 u (e^{l} - 1))         (0 <= u < k = 1 / (2 (e^{max l} - 1)))
 *   easy (R <= I, Lemma 2):  inf_s exp(-2 eps s + sum phi_s) - e^eps (1 - inf_u exp(2 eps u + sum psi_u)),
 *                            exactly 0 for eps >= sum(l)/2
 *   hard (R >= I, §6.5.4):   inf_{s<k} exp(-2 eps s + sum psi_s) - e^eps (1 - inf_u exp(2 eps u + sum phi_u))
 * </pre>
 * Each exponent is convex in its scalar variable, so it is minimised by bisection on its (increasing) derivative
 * (spec §6.5.2); {@code log1p}/{@code expm1} throughout and u kept below {@code k (1 - 1e-12)} (spec §11.3). Any
 * feasible s, u gives a valid bound, so imperfect minimisation costs tightness only. Results are clamped to [0, 1].
 */
final class CovarianceChernoff {

    private static final int ITERATIONS = 200;

    private CovarianceChernoff() {
    }

    /** Lemma 2 / Def. 6 delta_cov (easy orientation). */
    static double easy(double epsilon, double[] ell, double[] mult) {
        double nu = 0;
        double maxEll = 0;
        for (int i = 0; i < ell.length; i++) {
            nu += mult[i] * ell[i];
            maxEll = Math.max(maxEll, ell[i]);
        }
        if (maxEll == 0 || epsilon >= nu / 2) {
            return 0; // zero-leakage threshold (Lemma 2)
        }
        double first = Math.exp(minimiseOverHalfLine(s -> -2 * epsilon * s + sumPhi(s, ell, mult),
                s -> -2 * epsilon + sumPhiPrime(s, ell, mult)));
        double k = 1 / (2 * Math.expm1(maxEll));
        double second = Math.exp(minimiseBelow(k, u -> 2 * epsilon * u + sumPsi(u, ell, mult),
                u -> 2 * epsilon + sumPsiPrime(u, ell, mult)));
        return HockeyStickDivergence.clamp(first - Math.exp(epsilon) * (1 - second));
    }

    /** §6.5.4 delta_cov^hard (hard orientation). */
    static double hard(double epsilon, double[] ell, double[] mult) {
        double maxEll = 0;
        for (double l : ell) {
            maxEll = Math.max(maxEll, l);
        }
        if (maxEll == 0) {
            return epsilon >= 0 ? 0 : -Math.expm1(epsilon);
        }
        double k = 1 / (2 * Math.expm1(maxEll));
        double first = Math.exp(minimiseBelow(k, s -> -2 * epsilon * s + sumPsi(s, ell, mult),
                s -> -2 * epsilon + sumPsiPrime(s, ell, mult)));
        double second = Math.exp(minimiseOverHalfLine(u -> 2 * epsilon * u + sumPhi(u, ell, mult),
                u -> 2 * epsilon + sumPhiPrime(u, ell, mult)));
        return HockeyStickDivergence.clamp(first - Math.exp(epsilon) * (1 - second));
    }

    static double phi(double s, double l) {
        return s * l - 0.5 * Math.log1p(-2 * s * Math.expm1(-l));
    }

    static double psi(double u, double l) {
        return -u * l - 0.5 * Math.log1p(-2 * u * Math.expm1(l));
    }

    private static double sumPhi(double s, double[] ell, double[] mult) {
        double t = 0;
        for (int i = 0; i < ell.length; i++) {
            t += mult[i] * phi(s, ell[i]);
        }
        return t;
    }

    private static double sumPhiPrime(double s, double[] ell, double[] mult) {
        double t = 0;
        for (int i = 0; i < ell.length; i++) {
            double w = -Math.expm1(-ell[i]);
            t += mult[i] * (ell[i] - w / (1 + 2 * s * w));
        }
        return t;
    }

    private static double sumPsi(double u, double[] ell, double[] mult) {
        double t = 0;
        for (int i = 0; i < ell.length; i++) {
            t += mult[i] * psi(u, ell[i]);
        }
        return t;
    }

    private static double sumPsiPrime(double u, double[] ell, double[] mult) {
        double t = 0;
        for (int i = 0; i < ell.length; i++) {
            double w = Math.expm1(ell[i]);
            t += mult[i] * (-ell[i] + w / (1 - 2 * u * w));
        }
        return t;
    }

    /** min over s >= 0 of a convex f with increasing derivative df; f(0) = 0 here. */
    private static double minimiseOverHalfLine(DoubleUnaryOperator f, DoubleUnaryOperator df) {
        if (df.applyAsDouble(0) >= 0) {
            return f.applyAsDouble(0);
        }
        double hi = 1;
        int guard = 0;
        while (df.applyAsDouble(hi) < 0 && guard++ < 2000) {
            hi *= 2;
        }
        if (df.applyAsDouble(hi) < 0) {
            return Math.min(f.applyAsDouble(hi), f.applyAsDouble(0)); // unbounded below: take the last point
        }
        return bisect(f, df, 0, hi);
    }

    /** min over u in [0, k(1 - 1e-12)] of a convex f with increasing derivative df. */
    private static double minimiseBelow(double k, DoubleUnaryOperator f, DoubleUnaryOperator df) {
        if (df.applyAsDouble(0) >= 0) {
            return f.applyAsDouble(0);
        }
        double hi = k * (1 - 1e-12);
        if (df.applyAsDouble(hi) <= 0) {
            return f.applyAsDouble(hi);
        }
        return bisect(f, df, 0, hi);
    }

    private static double bisect(DoubleUnaryOperator f, DoubleUnaryOperator df, double lo, double hi) {
        for (int i = 0; i < ITERATIONS && hi - lo > 1e-15 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (df.applyAsDouble(mid) < 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.min(f.applyAsDouble(lo), f.applyAsDouble(hi));
    }

    /**
     * The concentrated vertex of the polytope {@code {0 <= l_i <= rhoInf, sum l_i <= nu}} in dimension m, which
     * maximises every separable sum of convex nondecreasing functions vanishing at 0 (spec §6.5.1): j = min(m,
     * floor(nu/rhoInf)) coordinates at rhoInf and one at r0 = min(rhoInf, nu - j rhoInf) when j < m.
     *
     * @return {ell values, multiplicities}; empty when rhoInf or nu is 0
     */
    static double[][] concentratedVertex(double rhoInf, double nu, int m) {
        if (rhoInf == 0 || nu == 0) {
            return new double[][] {{}, {}};
        }
        long j = Math.min(m, (long) Math.floor(nu / rhoInf + 1e-12));
        double r0 = j < m ? Math.max(0, Math.min(rhoInf, nu - j * rhoInf)) : 0;
        if (r0 > 0 && j > 0) {
            return new double[][] {{rhoInf, r0}, {j, 1}};
        }
        if (r0 > 0) {
            return new double[][] {{r0}, {1}};
        }
        return new double[][] {{rhoInf}, {j}};
    }
}
