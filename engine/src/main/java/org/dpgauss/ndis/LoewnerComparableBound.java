package org.dpgauss.ndis;

import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.calibration.RandomProjectionCurve;

/**
 * The analytic upper bound of the NDIS-calibrated Gaussian mechanism for a (Delta, rhoInf, nu)-Loewner-comparable
 * NDIS sensitivity (spec ndis §6.5, Defs. 5-6) in output dimension m.
 *
 * <ul>
 * <li>{@link Variant#PAPER_FAITHFUL}: Def. 6 as published, {@code delta_LC(eps) = inf_{eps1+eps2=eps}
 * [delta_mean(eps1; Delta) + e^{eps1} delta_cov(eps2)]} with the Lemma 2 (easy-orientation) Chernoff term and its
 * zero threshold {@code eps2 >= nu/2}. <b>Not a valid bound for every ordered pair</b> (spec §11.1; the §9.2
 * counterexamples undercut the exact delta). Provided for reproduction only.</li>
 * <li>{@link Variant#SOUND} (default): spec §6.5.4, the maximum of the hard-orientation composition
 * {@code inf [delta_mean(eps1) + e^{eps1} delta_cov^hard(eps - eps1)]} (R >= I: mean shift at covariance R, then
 * the covariance) and the easy-orientation composition {@code inf [delta_cov^easy(eps1) + e^{eps1}
 * delta_mean(eps - eps1)]} (R &lt;= I: covariance at mean m, then the mean shift).</li>
 * <li>{@link Variant#SOUND_EXACT_HARD}: as SOUND with the hard covariance term computed exactly rather than by
 * Chernoff: for the all-equal worst-case spectrum (nu >= m rhoInf, l_i = rhoInf) it is {@code delta^gRP_m(eps2;
 * p = 1 - e^{-rhoInf})} (spec §6.5.4, §5.5). This relies on monotonicity of the exact term in each eigenvalue,
 * which the spec reports as numerically checked, not proven; for nu &lt; m rhoInf it falls back to Chernoff.</li>
 * </ul>
 * {@code delta_mean(eps; Delta)} is Prop. 1 ({@link GaussianMechanismCurve}). A*, B* are evaluated at the
 * concentrated vertex of the polytope (spec §6.5.1). The eps-split uses a 400-interval grid, the candidates
 * {@code eps - nu/2} and {@code nu/2}, and golden-section refinement (spec §6.5.2).
 */
public final class LoewnerComparableBound {

    /** Which bound. */
    public enum Variant {
        /** Def. 6 exactly as published (unsound for the hard orientation, spec §11.1). */
        PAPER_FAITHFUL,
        /** Spec §6.5.4 sound variant, covering both orientations (Chernoff covariance terms). */
        SOUND,
        /** SOUND with the exact hard-orientation covariance term (Lemma 4 form) when nu >= m rhoInf. */
        SOUND_EXACT_HARD
    }

    /** Grid intervals of the eps-split (spec §6.5.2: at least 400). */
    public static final int SPLIT_INTERVALS = 400;

    private final Variant variant;

    private LoewnerComparableBound(Variant variant) {
        this.variant = variant;
    }

    /** The default, sound bound. */
    public static LoewnerComparableBound sound() {
        return new LoewnerComparableBound(Variant.SOUND);
    }

    public static LoewnerComparableBound of(Variant variant) {
        if (variant == null) {
            throw new IllegalArgumentException("variant must be one of PAPER_FAITHFUL, SOUND, SOUND_EXACT_HARD");
        }
        return new LoewnerComparableBound(variant);
    }

    public Variant variant() {
        return variant;
    }

    /**
     * The bound on {@code delta(eps)} for every ordered neighbouring pair with the given sensitivities.
     *
     * @param epsilon         eps >= 0, finite
     * @param meanSensitivity Delta >= 0, finite (bound on ||m_N||, Def. 5 item 1)
     * @param rhoInf          rho_inf >= 0, finite (bound on max |log tau_i|)
     * @param nu              nu >= 0, finite (bound on |sum log tau_i|)
     * @param m               the output dimension, >= 1
     */
    public double delta(double epsilon, double meanSensitivity, double rhoInf, double nu, int m) {
        check("epsilon", epsilon);
        check("meanSensitivity", meanSensitivity);
        check("rhoInf", rhoInf);
        check("nu", nu);
        if (m < 1) {
            throw new IllegalArgumentException("m = " + m + " must be >= 1 (the output dimension)");
        }
        double[][] vertex = CovarianceChernoff.concentratedVertex(rhoInf, nu, m);
        double[] ell = vertex[0];
        double[] mult = vertex[1];
        double nuEff = 0;
        for (int i = 0; i < ell.length; i++) {
            nuEff += ell[i] * mult[i];
        }
        double half = nuEff / 2;
        switch (variant) {
            case PAPER_FAITHFUL:
                return EpsilonSplit.minimise(epsilon, SPLIT_INTERVALS,
                        e1 -> mean(e1, meanSensitivity) + Math.exp(e1)
                                * CovarianceChernoff.easy(epsilon - e1, ell, mult),
                        epsilon - half)[0];
            default: {
                boolean exact = variant == Variant.SOUND_EXACT_HARD && rhoInf > 0 && nu >= m * rhoInf;
                double leverage = -Math.expm1(-rhoInf);
                double hard = EpsilonSplit.minimise(epsilon, SPLIT_INTERVALS,
                        e1 -> mean(e1, meanSensitivity) + Math.exp(e1)
                                * (exact ? RandomProjectionCurve.delta(Math.max(0, epsilon - e1), leverage, m)
                                        : CovarianceChernoff.hard(epsilon - e1, ell, mult)))[0];
                double easy = EpsilonSplit.minimise(epsilon, SPLIT_INTERVALS,
                        e1 -> CovarianceChernoff.easy(e1, ell, mult) + Math.exp(e1)
                                * mean(epsilon - e1, meanSensitivity),
                        half)[0];
                return HockeyStickDivergence.clamp(Math.max(hard, easy));
            }
        }
    }

    /** delta_mean(eps; Delta) of Def. 6 (Prop. 1; 0 for Delta = 0). */
    public static double mean(double epsilon, double meanSensitivity) {
        return meanSensitivity == 0 ? 0 : GaussianMechanismCurve.delta(Math.max(0, epsilon), meanSensitivity);
    }

    /** Def. 6 delta_cov (easy orientation, Lemma 2 maximised over the polytope, §6.5.1). */
    public static double covarianceEasy(double epsilon, double rhoInf, double nu, int m) {
        double[][] v = CovarianceChernoff.concentratedVertex(rhoInf, nu, m);
        return CovarianceChernoff.easy(epsilon, v[0], v[1]);
    }

    /** Spec §6.5.4 delta_cov^hard maximised over the polytope. */
    public static double covarianceHard(double epsilon, double rhoInf, double nu, int m) {
        double[][] v = CovarianceChernoff.concentratedVertex(rhoInf, nu, m);
        return CovarianceChernoff.hard(epsilon, v[0], v[1]);
    }

    /**
     * Smallest noise variance sigma with {@code F(sigma) = delta_LC(eps; Delta(sigma), rhoInf(sigma), nu(sigma))
     * <= delta} (spec §6.5.3): bracket by doubling from {@code scale}, then bisection on log sigma to relative
     * 1e-8; returns the feasible end.
     *
     * @param sensitivity sigma -> {Delta, rhoInf, nu} (sigma is a VARIANCE, spec §0)
     */
    public double calibrateVariance(double epsilon, double delta, int m,
            java.util.function.DoubleFunction<double[]> sensitivity, double scale) {
        check("epsilon", epsilon);
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta = " + delta + " must lie in (0, 1)");
        }
        if (!(scale > 0) || !Double.isFinite(scale)) {
            throw new IllegalArgumentException("scale = " + scale + " must be finite and > 0");
        }
        java.util.function.DoubleUnaryOperator f = s -> {
            double[] p = sensitivity.apply(s);
            return delta(epsilon, p[0], p[1], p[2], m);
        };
        double lo = 1e-12 * scale;
        double hi = scale;
        int guard = 0;
        while (f.applyAsDouble(hi) > delta) {
            lo = hi;
            hi *= 2;
            if (++guard > 200) {
                throw new IllegalStateException("no feasible variance up to " + hi);
            }
        }
        for (int i = 0; i < 200 && hi - lo > 1e-8 * hi; i++) {
            double mid = Math.sqrt(lo * hi);
            if (f.applyAsDouble(mid) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    private static void check(String name, double v) {
        if (!(v >= 0) || !Double.isFinite(v)) {
            throw new IllegalArgumentException(name + " = " + v + " must be finite and >= 0 (spec ndis §6.5 Def. 6)");
        }
    }
}
