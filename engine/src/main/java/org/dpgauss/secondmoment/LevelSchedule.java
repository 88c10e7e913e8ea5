package org.dpgauss.secondmoment;

import org.dpgauss.privacy.Zcdp;

/**
 * The public, data-independent level schedule of Algorithm 2 (spec second-moment-estimation §2.3, §3.2, §4.2 item
 * 1): {@code kappa_t = (3/7)^t kappa_0}, {@code R_t = sqrt(kappa_t)}, the stop at the first {@code t} with
 * {@code kappa_t <= C_stop = 640 m}, the number of levels (noise draws) {@code L}, the paper's depth
 * {@code T = log_{7/3}(kappa_0 / (640 m))}, the per-level noise {@code sigma_t} and its privacy accounting.
 *
 * <p><b>Accounting.</b> Level {@code t} releases {@code perturb(Gram(X_t), sigma_t)} where every row of {@code X_t}
 * has norm {@code <= R_t} (the algorithm clips with a floating-point safety margin). Replacing one row moves the
 * upper triangle of the exact Gram by at most {@code sqrt(2) R_t^2 / n} in L2 (spec §3.2: {@code ||x x^T - x' x'^T||_F
 * <= sqrt(2) R^2}); the computed Gram differs from the exact one by at most {@code gamma_{n+1} R_t^2} in Frobenius
 * norm for each dataset (Higham §3.1: every entry errs by {@code gamma_{n+1} sum_i |x_ij x_ik| / n}, and that
 * matrix has Frobenius norm {@code <= R_t^2}); rounding onto the noise grid adds {@link
 * SymmetricNoise#roundingInflation}. The accounted sensitivity is {@code Delta'_t} = the sum of the three, and the
 * schedule is {@code rho_accounted = sum_t Delta'_t^2 / (2 sigma_t^2)}-zCDP by adaptive composition (the subspaces
 * and clipping at level {@code t+1} are post-processing of the releases up to {@code t}). Construction refuses a
 * schedule with {@code rho_accounted > rho}. For {@link NoiseScaling#LEVELS} the paper's own accounting
 * ({@code 4 R_t^2 / n} per level, {@code rho / L} each) gives exactly {@code rho}, and {@code rho_accounted} is about
 * {@code rho / 8}. Immutable.
 */
public final class LevelSchedule {

    /** Shrink factor of kappa per level (Cor 3.5). */
    public static final double SHRINK = 3.0 / 7.0;
    /** {@code C_stop / m} (Alg 1 step 1). */
    public static final double STOP_PER_M = 640.0;
    /** Unit roundoff of double precision. */
    static final double U = 0x1p-53;

    private final double kappa0;
    private final int m;
    private final int n;
    private final int d;
    private final double rho;
    private final NoiseScaling scaling;
    private final double[] kappa;
    private final double[] sigma;
    private final double[] sensitivity;
    private final double paperT;
    private final double accountedRho;

    private LevelSchedule(double kappa0, int m, int n, int d, double rho, NoiseScaling scaling, SymmetricNoise noise) {
        this.kappa0 = kappa0;
        this.m = m;
        this.n = n;
        this.d = d;
        this.rho = rho;
        this.scaling = scaling;
        double cStop = STOP_PER_M * m;
        int levels = 1;
        double k = kappa0;
        while (k > cStop) { // spec §3.2 [proposal]: simulate the kappa schedule to count the noise draws
            k *= SHRINK;
            levels++;
        }
        this.kappa = new double[levels];
        k = kappa0;
        for (int t = 0; t < levels; t++) {
            kappa[t] = k;
            k *= SHRINK;
        }
        this.paperT = Math.log(kappa0 / cStop) / Math.log(7.0 / 3.0);
        if (scaling == NoiseScaling.PAPER_T && !(paperT >= 1)) {
            throw new IllegalArgumentException("noise scaling 'paper' needs T = log_{7/3}(R^2/((1-alpha) 640 m)) >= 1,"
                    + " but T=" + paperT + " (kappa_0=" + kappa0 + ", m=" + m + "): sqrt(T) is not a usable noise"
                    + " factor and the paper's accounting L rho/T would exceed rho (spec §3.2); use 'levels'");
        }
        this.sigma = new double[levels];
        this.sensitivity = new double[levels];
        double gamma = (n + 1.0) * U / (1 - (n + 1.0) * U);
        double total = 0;
        for (int t = 0; t < levels; t++) {
            double r2 = kappa[t];
            double ideal = Math.nextUp(Math.sqrt(2.0) * r2 / n * (1 + 4 * U));
            double fp = Math.nextUp(2 * gamma * r2 * (1 + 4 * U));
            double s;
            switch (scaling) {
                case LEVELS:
                    s = 4 * r2 * Math.sqrt(levels) / (n * Math.sqrt(2 * rho));
                    break;
                case PAPER_T:
                    s = 4 * r2 * Math.sqrt(paperT) / (n * Math.sqrt(2 * rho));
                    break;
                case TIGHT: {
                    // calibrate to the tight sensitivity; the grid depends on sigma, so iterate once more with it
                    s = Zcdp.sigmaFor(rho / levels, ideal + fp);
                    for (int i = 0; i < 4; i++) { // the grid grows with sigma: iterate to a fixed point
                        s = Zcdp.sigmaFor(rho / levels, Math.nextUp(ideal + fp + noise.roundingInflation(d, s)));
                    }
                    break;
                }
                default:
                    throw new IllegalStateException();
            }
            sigma[t] = s;
            double delta = Math.nextUp(ideal + fp + noise.roundingInflation(d, s));
            sensitivity[t] = delta;
            total += Zcdp.gaussianMechanism(delta, s).rho();
        }
        this.accountedRho = total;
        if (total > rho * (1 + 1e-12)) {
            throw new IllegalArgumentException("the level schedule (L=" + levels + ", n=" + n + ", d=" + d
                    + ", scaling " + scaling.id() + ") accounts rho=" + total + " > the budget rho=" + rho
                    + ": floating-point and grid slack exceed the margin of the noise calibration");
        }
    }

    /**
     * @param kappa0 {@code kappa_0 = R_0^2}, the squared radius after normalisation and the {@code 1/(1-alpha)}
     *        pre-scaling (Alg 1 step 3), finite and {@code > 0}
     * @param m the subsamplability size, {@code >= 1}
     * @param n the number of rows (public), {@code >= 1}
     * @param d the dimension, {@code >= 1}
     * @param rho the zCDP budget, {@code > 0}
     * @param scaling the noise scaling
     * @param noise the noise whose grid rounding is accounted
     * @return the schedule
     */
    public static LevelSchedule of(double kappa0, int m, int n, int d, double rho, NoiseScaling scaling,
            SymmetricNoise noise) {
        if (!(kappa0 > 0) || Double.isInfinite(kappa0)) {
            throw new IllegalArgumentException("kappa_0=" + kappa0 + " is outside (0, inf): it is the squared"
                    + " normalised radius R^2/(lambda (1-alpha))");
        }
        if (m < 1) {
            throw new IllegalArgumentException("m=" + m + " is outside [1, inf)");
        }
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " is outside [1, inf): the second moment needs rows");
        }
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " is outside [1, inf)");
        }
        if (!(rho > 0) || Double.isInfinite(rho)) {
            throw new IllegalArgumentException("rho=" + rho + " is outside (0, inf)");
        }
        if (kappa0 / (STOP_PER_M * m) > 1e300) {
            throw new IllegalArgumentException("kappa_0=" + kappa0 + " is too large to schedule");
        }
        return new LevelSchedule(kappa0, m, n, d, rho, java.util.Objects.requireNonNull(scaling, "scaling"),
                java.util.Objects.requireNonNull(noise, "noise"));
    }

    /** @return {@code L}, the number of levels (noise draws), leaf included */
    public int levels() {
        return kappa.length;
    }

    /** @param t level in {@code [0, L)} @return {@code kappa_t = (3/7)^t kappa_0 = R_t^2} */
    public double kappa(int t) {
        return kappa[t];
    }

    /** @param t level @return {@code R_t = sqrt(kappa_t)} */
    public double radius(int t) {
        return Math.sqrt(kappa[t]);
    }

    /** @param t level @return the noise standard deviation requested at level t */
    public double sigma(int t) {
        return sigma[t];
    }

    /** @param t level @return the accounted L2 sensitivity {@code Delta'_t} of level t's release */
    public double sensitivity(int t) {
        return sensitivity[t];
    }

    /** @return the paper's {@code T = log_{7/3}(kappa_0 / (640 m))} (may be non-integer or non-positive) */
    public double paperT() {
        return paperT;
    }

    /** @return {@code C_stop = 640 m} */
    public double stop() {
        return STOP_PER_M * m;
    }

    /** @return {@code psi = 1/(10 m)}, the eigenvalue threshold factor */
    public double psi() {
        return 1.0 / (10.0 * m);
    }

    /** @return the total zCDP cost by the exact accounting of the class comment, {@code <= rho} */
    public double accountedRho() {
        return accountedRho;
    }

    /** @return the budget rho */
    public double rho() {
        return rho;
    }

    /** @return kappa_0 */
    public double kappa0() {
        return kappa0;
    }

    /** @return m */
    public int m() {
        return m;
    }

    /** @return n */
    public int n() {
        return n;
    }

    /** @return d */
    public int d() {
        return d;
    }

    /** @return the noise scaling */
    public NoiseScaling scaling() {
        return scaling;
    }

    /**
     * The concrete sample-size conditions of spec §4.1 turned into the accuracy they give at this {@code n}:
     * {@code gamma = 4 sqrt(2) kappa_leaf sqrt(L/rho) f / n} with {@code f = sqrt(d) + sqrt(ln(2L/xi))}, the leaf
     * noise bound {@code ||N_leaf|| <= sigma_leaf (2 sqrt(d) + 2 sqrt(ln(2L/xi)))} relative to
     * {@code lambda_min(Sigma_leaf) >= 1}, for {@link NoiseScaling#LEVELS} (uses the schedule's actual sigma, so it
     * is valid for every scaling).
     *
     * @param xi failure probability shared over the L levels
     * @return gamma (may exceed 1: then the bound says nothing useful)
     */
    public double leafAccuracy(double xi) {
        return noiseNormBound(levels() - 1, xi);
    }

    /**
     * Whether event E's sufficient condition holds (spec §4.1): at every intermediate level,
     * {@code sigma_t (2 sqrt(d) + 2 sqrt(ln(2L/xi))) <= kappa_t / (80 m)}.
     *
     * @param xi failure probability shared over the L levels
     * @return true if E holds with probability {@code >= 1 - xi (L-1)/L} by the §3.3 bound
     */
    public boolean eventEConditionHolds(double xi) {
        for (int t = 0; t < levels() - 1; t++) {
            if (noiseNormBound(t, xi) * kappa[t] > kappa[t] / (80.0 * m)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The typical spectral norm of an intermediate level's noise relative to the eigen-split threshold,
     * {@code 2 sigma_t sqrt(d) / (psi kappa_t)} with {@code psi = 1/(10 m)} ({@code E||N|| ~ 2 sigma sqrt(d)}, spec
     * §3.3); the same at every level since {@code sigma_t} is proportional to {@code kappa_t}; for
     * {@link NoiseScaling#LEVELS} it is {@code 80 m sqrt(L d) / (n sqrt(2 rho))}. Above 1 the noise alone has
     * eigenvalues above {@code psi kappa_t}, so {@code V_t} takes in pure-noise directions, {@code Pi_t} halves
     * directions of small variance and {@code lambda_min} of the rows' second moment falls below 1 level after level
     * (Cor 3.10 needs event E, i.e. a ratio below 1/8): the leaf noise is then amplified (docs/design/second-moment-defaults.md). Public.
     *
     * @return the ratio, or NaN when {@code L = 1} (no split)
     */
    public double noiseOverSplitThreshold() {
        if (levels() == 1) {
            return Double.NaN;
        }
        double s = SymmetricGaussianNoise.effectiveSigma(sigma[0]);
        return 2 * s * Math.sqrt(d) / (psi() * kappa[0]);
    }

    /** The §3.3 bound on ||N_t|| divided by kappa_t (leaf: divided by 1 = lambda_min(Sigma_leaf) lower bound). */
    private double noiseNormBound(int t, double xi) {
        if (!(xi > 0 && xi < 1)) {
            throw new IllegalArgumentException("xi=" + xi + " is outside (0, 1)");
        }
        int levels = levels();
        double s = SymmetricGaussianNoise.effectiveSigma(sigma[t]);
        double bound = s * (2 * Math.sqrt(d) + 2 * Math.sqrt(Math.log(2.0 * levels / xi)));
        return t == levels - 1 ? bound : bound / kappa[t];
    }
}
