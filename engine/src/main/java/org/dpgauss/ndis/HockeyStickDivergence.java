package org.dpgauss.ndis;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.commons.numbers.gamma.RegularizedGamma;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.gx2.GeneralizedChiSquare;
import org.dpgauss.gx2.Gx2Probability;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.special.Normal;
import org.ejml.data.DMatrixRMaj;

/**
 * The hockey-stick divergence between two Gaussians, {@code delta_{X,Y}(eps) = sup_S (Pr[X in S] - e^eps
 * Pr[Y in S])_+} (spec ndis §0; X is the FIRST argument), computed exactly through Theorem 4.1 (spec §3) as two
 * generalized chi-square probabilities, {@code delta = p0 - e^eps p1}.
 *
 * <p>Pipeline ({@link #prepare}): the decomposition (Cholesky whitening and one symmetric EVD, spec §2.1) is done
 * once per ordered pair and reused for every epsilon. Exact shortcuts first:
 * <ul>
 * <li>identical distributions: 0 for eps &gt;= 0, {@code 1 - e^eps} for eps &lt; 0 (spec §11.4, duality §9.1 item 4);</li>
 * <li>different supports of singular covariances: 1 for every eps; same support: projection onto the common
 * range (spec §11.4; eigenvalues below {@link #RANK_TOLERANCE}·||S|| are zero);</li>
 * <li>equal covariances: the Gaussian-mechanism curve, Proposition 1 (spec §5.1);</li>
 * <li>equal means and a single non-unit eigenvalue of multiplicity r (rank-one difference, or its Kronecker
 * power {@code I_r (x) S}): the Lemma 4 form with regularized incomplete gamma functions (spec §5.5);</li>
 * <li>no quadratic term left after the near-unit classification: a normal closed form (spec §4.2 item 3).</li>
 * </ul>
 * Otherwise both terms go to {@link GeneralizedChiSquare}, eigenvalues that agree to {@link #GROUP_TOLERANCE}
 * merged into one term with r degrees of freedom (spec §3 "Grouping"). Eigenvalues with
 * {@code |a_i| <= LINEAR_TOLERANCE * max(1, max|a|)} or noncentrality above {@link #NONCENTRALITY_LIMIT} are
 * treated as linear and go into the normal coefficient (spec §11.3). When every weight is negative (the hard
 * direction, spec §5.3) the probabilities are upper tails and are computed as survival functions of the negated
 * variable (spec §4.2 item 4). {@code e^eps p1} is {@code exp(eps + log p1)}; the result is clamped to [0, 1].
 *
 * <p>Negative epsilon is allowed: Lemma 1 and Theorem 4.1 hold for eps &lt; 0 (spec §2, §9.1 item 4).
 */
public final class HockeyStickDivergence {

    /** Relative size of |a_i| below which eigenvalue i is linear (spec §11.3). */
    public static final double LINEAR_TOLERANCE = 1e-9;
    /** Noncentrality above which eigenvalue i is linear (spec §11.3). */
    public static final double NONCENTRALITY_LIMIT = 1e12;
    /** Eigenvalues of a covariance below this times its largest are zero (spec §11.4). */
    public static final double RANK_TOLERANCE = 1e-12;
    /** Relative difference of the a_i below which their terms are merged (spec §3 "Grouping"). */
    public static final double GROUP_TOLERANCE = 1e-12;

    /** Rounding allowance (relative) for closed forms built on erfc and incomplete gamma. */
    static final double CLOSED_FORM_RELATIVE_ERROR = 1e-13;

    private final ComputeEngine engine;

    private HockeyStickDivergence(ComputeEngine engine) {
        this.engine = engine;
    }

    /** @return a calculator whose matrix steps run on the given engine */
    public static HockeyStickDivergence using(ComputeEngine engine) {
        return new HockeyStickDivergence(Objects.requireNonNull(engine, "engine"));
    }

    /** @return a calculator on {@link CpuEngine} */
    public static HockeyStickDivergence cpu() {
        return new HockeyStickDivergence(CpuEngine.instance());
    }

    public ComputeEngine engine() {
        return engine;
    }

    /** {@code delta_{X,Y}(eps)} with X = x first. */
    public double delta(Gaussian x, Gaussian y, double epsilon) {
        return prepare(x, y).delta(epsilon);
    }

    /** {@code delta_{X,Y}(eps)} for every eps, reusing one decomposition. */
    public double[] delta(Gaussian x, Gaussian y, double[] epsilons) {
        return prepare(x, y).delta(epsilons);
    }

    /** {@code delta_{X,Y}(eps)} with p0, p1, an absolute error bound and the method. */
    public DeltaEvaluation evaluate(Gaussian x, Gaussian y, double epsilon) {
        return prepare(x, y).evaluate(epsilon);
    }

    /**
     * Decomposes the ordered pair once (spec §2.1, §11.4).
     *
     * @throws IllegalArgumentException when the dimensions differ or a covariance is not positive semidefinite
     */
    public Prepared prepare(Gaussian x, Gaussian y) {
        NdisCoefficients.checkSameDimension(x, y);
        if (x.equals(y)) {
            return Prepared.identical(x.dimension());
        }
        CholeskyResult cy = engine.cholesky(y.covarianceView());
        CholeskyResult cx = engine.cholesky(x.covarianceView());
        if (cy.isPositiveDefinite() && cx.isPositiveDefinite()) {
            return preparePositiveDefinite(x, y, cy.lower());
        }
        return prepareSingular(x, y);
    }

    private Prepared preparePositiveDefinite(Gaussian x, Gaussian y, DMatrixRMaj lowerY) {
        int d = x.dimension();
        if (x.sameCovariance(y)) {
            double[] mu1 = x.meanView();
            double[] mu2 = y.meanView();
            DMatrixRMaj diff = new DMatrixRMaj(d, 1);
            for (int i = 0; i < d; i++) {
                diff.data[i] = mu1[i] - mu2[i];
            }
            DMatrixRMaj m = engine.solveLower(lowerY, diff);
            double s = 0;
            for (double v : m.data) {
                s += v * v;
            }
            return Prepared.gaussianMechanism(d, Math.sqrt(s));
        }
        NdisCoefficients coefficients = NdisCoefficients.fromCholesky(engine, lowerY, x, y);
        return Prepared.general(coefficients, x.sameMean(y));
    }

    /** Spec §11.4: at least one covariance is singular (or failed Cholesky). */
    private Prepared prepareSingular(Gaussian x, Gaussian y) {
        int d = x.dimension();
        SymmetricEigen ex = engine.symmetricEigen(x.covarianceView());
        SymmetricEigen ey = engine.symmetricEigen(y.covarianceView());
        double maxX = Math.max(0, ex.value(d - 1));
        double maxY = Math.max(0, ey.value(d - 1));
        double scale = Math.max(maxX, maxY);
        checkPsd("x", ex, scale);
        checkPsd("y", ey, scale);
        double floor = 8.0 * d * Math.ulp(1.0);
        int kx = rank(ex, Math.max(RANK_TOLERANCE, floor) * maxX);
        int ky = rank(ey, Math.max(RANK_TOLERANCE, floor) * maxY);
        double[] mu1 = x.meanView();
        double[] mu2 = y.meanView();
        double meanScale = Math.sqrt(scale);
        double diffNorm = 0;
        for (int i = 0; i < d; i++) {
            meanScale = Math.max(meanScale, Math.max(Math.abs(mu1[i]), Math.abs(mu2[i])));
            diffNorm += (mu1[i] - mu2[i]) * (mu1[i] - mu2[i]);
        }
        diffNorm = Math.sqrt(diffNorm);
        if (kx != ky) {
            return Prepared.disjoint(d, "ranks " + kx + " and " + ky);
        }
        int k = kx;
        if (k == 0) {
            // two point masses (zero covariances)
            return diffNorm <= 1e-12 * meanScale ? Prepared.identical(d) : Prepared.disjoint(d, "point masses");
        }
        if (k == d) {
            throw new IllegalArgumentException("a covariance failed Cholesky but all its eigenvalues exceed "
                    + RANK_TOLERANCE + " times the largest; it is too ill-conditioned to classify as singular or"
                    + " positive definite (spec ndis §11.3-11.4)");
        }
        DMatrixRMaj vx = ex.vectors();
        DMatrixRMaj vy = ey.vectors();
        // basis of range(Sy): the last k eigenvectors (ascending order)
        DMatrixRMaj basis = new DMatrixRMaj(d, k);
        DMatrixRMaj basisX = new DMatrixRMaj(d, k);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < k; j++) {
                basis.unsafe_set(i, j, vy.unsafe_get(i, d - k + j));
                basisX.unsafe_set(i, j, vx.unsafe_get(i, d - k + j));
            }
        }
        // subspace distance ||Vx - Vy Vy^T Vx||_F
        DMatrixRMaj proj = engine.multiply(basis, true, basisX, false);
        DMatrixRMaj back = engine.multiply(basis, false, proj, false);
        double dist = 0;
        for (int i = 0; i < back.data.length; i++) {
            double v = basisX.data[i] - back.data[i];
            dist += v * v;
        }
        if (Math.sqrt(dist) > 1e-6 * Math.sqrt(k)) {
            return Prepared.disjoint(d, "different ranges");
        }
        // mean difference must lie in the common range
        double[] coords = new double[k];
        double residual = 0;
        for (int j = 0; j < k; j++) {
            double s = 0;
            for (int i = 0; i < d; i++) {
                s += basis.unsafe_get(i, j) * (mu1[i] - mu2[i]);
            }
            coords[j] = s;
        }
        for (int i = 0; i < d; i++) {
            double s = mu1[i] - mu2[i];
            for (int j = 0; j < k; j++) {
                s -= basis.unsafe_get(i, j) * coords[j];
            }
            residual += s * s;
        }
        if (Math.sqrt(residual) > 1e-9 * meanScale) {
            return Prepared.disjoint(d, "mean difference outside the common range");
        }
        Gaussian rx = project(x, basis);
        Gaussian ry = project(y, basis);
        Prepared reduced = prepare(rx, ry);
        return reduced.withNote("projected " + d + " -> " + k);
    }

    private Gaussian project(Gaussian g, DMatrixRMaj basis) {
        int d = basis.numRows;
        int k = basis.numCols;
        double[] mu = g.meanView();
        double[] m = new double[k];
        for (int j = 0; j < k; j++) {
            double s = 0;
            for (int i = 0; i < d; i++) {
                s += basis.unsafe_get(i, j) * mu[i];
            }
            m[j] = s;
        }
        DMatrixRMaj sv = engine.multiply(g.covarianceView(), false, basis, false);
        DMatrixRMaj c = engine.multiply(basis, true, sv, false);
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                double s = 0.5 * (c.unsafe_get(i, j) + c.unsafe_get(j, i));
                c.unsafe_set(i, j, s);
                c.unsafe_set(j, i, s);
            }
        }
        return Gaussian.of(m, c);
    }

    private static void checkPsd(String name, SymmetricEigen e, double scale) {
        double min = e.value(0);
        if (min < -1e-9 * scale) {
            throw new IllegalArgumentException("covariance of " + name + " has eigenvalue " + min
                    + " < 0 (largest " + scale + "); a covariance must be positive semidefinite");
        }
    }

    private static int rank(SymmetricEigen e, double threshold) {
        int k = 0;
        for (int i = 0; i < e.dimension(); i++) {
            if (e.value(i) > threshold) {
                k++;
            }
        }
        return k;
    }

    /** Checks an epsilon argument: NaN is rejected; +-infinity are allowed (limits 0 and 1). */
    static void checkEpsilon(double epsilon) {
        if (Double.isNaN(epsilon)) {
            throw new IllegalArgumentException("epsilon = NaN; it must be a real number (negative allowed,"
                    + " spec ndis §9.1 item 4)");
        }
    }

    /** Prop. 1, spec §5.1, for every real eps (the calibration package applies duality for eps < 0). */
    static double gaussianMechanismDelta(double epsilon, double tau) {
        return GaussianMechanismCurve.delta(epsilon, tau);
    }

    static double clamp(double v) {
        return v < 0 ? 0 : (v > 1 ? 1 : v);
    }

    /** {@code e^eps * p} without overflow where the product is finite. */
    static double scaled(double epsilon, double p) {
        if (p == 0) {
            return 0;
        }
        return epsilon > 700 || epsilon < -700 ? Math.exp(epsilon + Math.log(p)) : Math.exp(epsilon) * p;
    }

    /** An ordered pair decomposed once; evaluate at any epsilon. Immutable and thread-safe. */
    public static final class Prepared {

        private enum Kind { IDENTICAL, DISJOINT, GAUSSIAN_MECHANISM, NORMAL, GAMMA, GX2 }

        private final Kind kind;
        private final int dimension;
        private final String note;
        /** Mahalanobis distance (GAUSSIAN_MECHANISM). */
        private final double tau;
        private final NdisCoefficients coefficients;
        /** Constant parts of the thresholds: t0 = -(c(eps) - s), t1 = -(c(eps) - s + b0). */
        private final double s;
        private final double b0;
        private final double sigma;
        /** GAMMA: common eigenvalue and multiplicity. */
        private final double commonTau;
        private final int multiplicity;
        private final Term term0;
        private final Term term1;

        private Prepared(Kind kind, int dimension, String note, double tau, NdisCoefficients coefficients, double s,
                double b0, double sigma, double commonTau, int multiplicity, Term term0, Term term1) {
            this.kind = kind;
            this.dimension = dimension;
            this.note = note;
            this.tau = tau;
            this.coefficients = coefficients;
            this.s = s;
            this.b0 = b0;
            this.sigma = sigma;
            this.commonTau = commonTau;
            this.multiplicity = multiplicity;
            this.term0 = term0;
            this.term1 = term1;
        }

        static Prepared identical(int d) {
            return new Prepared(Kind.IDENTICAL, d, "", 0, null, 0, 0, 0, 0, 0, null, null);
        }

        static Prepared disjoint(int d, String why) {
            return new Prepared(Kind.DISJOINT, d, why, 0, null, 0, 0, 0, 0, 0, null, null);
        }

        static Prepared gaussianMechanism(int d, double tau) {
            if (tau == 0) {
                return identical(d);
            }
            return new Prepared(Kind.GAUSSIAN_MECHANISM, d, "", tau, null, 0, 0, 0, 0, 0, null, null);
        }

        Prepared withNote(String extra) {
            return new Prepared(kind, dimension, note.isEmpty() ? extra : note + "; " + extra, tau, coefficients, s,
                    b0, sigma, commonTau, multiplicity, term0, term1);
        }

        /** Theorem 4.1 set-up from the coefficients (spec §3, §11.3). */
        static Prepared general(NdisCoefficients coefficients, boolean equalMeans) {
            double[] tauV = coefficients.tauView();
            double[] a = coefficients.aView();
            double[] b = coefficients.bView();
            int d = tauV.length;
            double maxAbsA = 0;
            for (double v : a) {
                maxAbsA = Math.max(maxAbsA, Math.abs(v));
            }
            double linearTol = LINEAR_TOLERANCE * Math.max(1, maxAbsA);
            boolean[] quadratic = new boolean[d];
            double sum = 0;
            double b0 = 0;
            int nq = 0;
            for (int i = 0; i < d; i++) {
                boolean linear = Math.abs(a[i]) <= linearTol;
                if (!linear) {
                    double ratio = b[i] / a[i];
                    linear = ratio * ratio > NONCENTRALITY_LIMIT;
                }
                if (linear) {
                    b0 += b[i] * b[i];
                } else {
                    quadratic[i] = true;
                    nq++;
                    sum += b[i] * b[i] / (2 * a[i]);
                }
            }
            double sigma = Math.sqrt(b0);
            if (nq == 0) {
                return new Prepared(Kind.NORMAL, d, "", 0, coefficients, sum, b0, sigma, 0, 0, null, null);
            }
            // groups of (nearly) equal a_i, consecutive since tau is ascending
            List<int[]> groups = new ArrayList<>();
            int start = -1;
            for (int i = 0; i < d; i++) {
                if (!quadratic[i]) {
                    continue;
                }
                if (start >= 0 && Math.abs(a[i] - a[start]) <= GROUP_TOLERANCE * maxAbsA
                        && Math.signum(a[i]) == Math.signum(a[start])) {
                    groups.get(groups.size() - 1)[1] = i + 1;
                } else {
                    groups.add(new int[] {i, i + 1});
                    start = i;
                }
            }
            boolean allBZero = true;
            for (double v : b) {
                allBZero &= v == 0;
            }
            if (groups.size() == 1 && allBZero) {
                int[] g = groups.get(0);
                double meanTau = 0;
                int r = 0;
                for (int i = g[0]; i < g[1]; i++) {
                    if (quadratic[i]) {
                        meanTau += tauV[i];
                        r++;
                    }
                }
                meanTau /= r;
                return new Prepared(Kind.GAMMA, d, equalMeans ? "" : "b = 0", 0, coefficients, 0, 0, 0, meanTau,
                        r, null, null);
            }
            int ng = groups.size();
            double[] w0 = new double[ng];
            double[] w1 = new double[ng];
            double[] nc0 = new double[ng];
            double[] nc1 = new double[ng];
            int[] dof = new int[ng];
            for (int gi = 0; gi < ng; gi++) {
                int[] g = groups.get(gi);
                double aSum = 0;
                double tSum = 0;
                for (int i = g[0]; i < g[1]; i++) {
                    if (!quadratic[i]) {
                        continue;
                    }
                    dof[gi]++;
                    aSum += a[i];
                    tSum += tauV[i];
                    double r0 = b[i] / a[i];
                    nc0[gi] += r0 * r0;
                    double r1 = r0 / Math.sqrt(tauV[i]);
                    nc1[gi] += r1 * r1;
                }
                double aMean = aSum / dof[gi];
                double tMean = tSum / dof[gi];
                w0[gi] = aMean / 2;
                w1[gi] = aMean / (2 * tMean);
            }
            Term t0 = Term.of(w0, dof, nc0, sigma);
            Term t1 = Term.of(w1, dof, nc1, sigma);
            return new Prepared(Kind.GX2, d, ng < nq ? "merged " + nq + " -> " + ng + " terms" : "", 0, coefficients,
                    sum, b0, sigma, 0, 0, t0, t1);
        }

        public int dimension() {
            return dimension;
        }

        /** The decomposition, or null for the shortcut cases (identical, disjoint, equal covariances). */
        public NdisCoefficients coefficients() {
            return coefficients;
        }

        /** Which evaluation path is used, e.g. {@code gaussian-mechanism} or {@code gx2}. */
        public String structure() {
            String base = switch (kind) {
                case IDENTICAL -> "identical";
                case DISJOINT -> "disjoint-support";
                case GAUSSIAN_MECHANISM -> "gaussian-mechanism";
                case NORMAL -> "normal";
                case GAMMA -> "chi-square-gamma";
                case GX2 -> "gx2";
            };
            return note.isEmpty() ? base : base + " (" + note + ")";
        }

        public double delta(double epsilon) {
            return evaluate(epsilon).delta();
        }

        public double[] delta(double[] epsilons) {
            double[] out = new double[epsilons.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = delta(epsilons[i]);
            }
            return out;
        }

        public DeltaEvaluation evaluate(double epsilon) {
            Terms t = terms(epsilon);
            double e1 = scaled(epsilon, t.p1());
            double delta = Double.isNaN(t.exactDelta()) ? clamp(t.p0() - e1) : t.exactDelta();
            double rounding = 4 * Math.ulp(1.0) * (t.p0() + e1);
            double err = t.p0ErrorBound() + scaled(epsilon, t.p1ErrorBound()) + rounding;
            return new DeltaEvaluation(delta, t.p0(), t.p1(), err, t.method());
        }

        /** The two probabilities of Theorem 4.1 with their oracle error bounds (for the auditor, spec §6.8). */
        Terms terms(double epsilon) {
            checkEpsilon(epsilon);
            String method = structure();
            if (kind == Kind.DISJOINT) {
                return new Terms(1, 0, 0, 0, 1, method);
            }
            if (epsilon == Double.POSITIVE_INFINITY) {
                return new Terms(0, 0, 0, 0, 0, method);
            }
            if (epsilon == Double.NEGATIVE_INFINITY) {
                return new Terms(1, 0, 1, 0, 1, method);
            }
            switch (kind) {
                case IDENTICAL: {
                    double p = epsilon >= 0 ? 0 : 1;
                    return new Terms(p, 0, p, 0, epsilon >= 0 ? 0 : -Math.expm1(epsilon), method);
                }
                case GAUSSIAN_MECHANISM: {
                    double p0 = Normal.cdf(-epsilon / tau + tau / 2);
                    double p1 = Normal.cdf(-epsilon / tau - tau / 2);
                    return new Terms(p0, CLOSED_FORM_RELATIVE_ERROR * p0, p1, CLOSED_FORM_RELATIVE_ERROR * p1,
                            gaussianMechanismDelta(epsilon, tau), method);
                }
                case NORMAL:
                    return normal(epsilon, method);
                case GAMMA:
                    return gamma(epsilon, method);
                default:
                    return generalizedChiSquare(epsilon, method);
            }
        }

        private Terms normal(double epsilon, String method) {
            double c = coefficients.c(epsilon);
            double t0 = -(c - s);
            double t1 = -(c - s + b0);
            if (sigma == 0) {
                // g is the constant c: delta = (1 - e^c)_+ (Lemma 1)
                double p = c <= 0 ? 1 : 0;
                return new Terms(p, 0, p, 0, c < 0 ? clamp(-Math.expm1(c)) : 0, method);
            }
            double p0 = Normal.cdf(t0 / sigma);
            double p1 = Normal.cdf(t1 / sigma);
            return new Terms(p0, CLOSED_FORM_RELATIVE_ERROR * p0, p1, CLOSED_FORM_RELATIVE_ERROR * p1, Double.NaN,
                    method);
        }

        /** Lemma 4 form (spec §5.5), generalised to either orientation and every eps. */
        private Terms gamma(double epsilon, String method) {
            double half = multiplicity / 2.0;
            double c = epsilon + half * Math.log(commonTau); // m = 0
            double a = 1 - commonTau;
            double p0;
            double p1;
            if (a < 0) {
                // hard: g <= 0 <=> T >= t0 = 2c/(tau - 1); T ~ chi2_r under X, tau*T' under Y
                double t0 = 2 * c / (-a);
                p0 = t0 <= 0 ? 1 : RegularizedGamma.Q.value(half, t0 / 2);
                p1 = t0 <= 0 ? 1 : RegularizedGamma.Q.value(half, commonTau * t0 / 2);
            } else {
                // easy: g <= 0 <=> T <= f = -2c/(1 - tau)
                double f = -2 * c / a;
                p0 = f <= 0 ? 0 : RegularizedGamma.P.value(half, f / 2);
                p1 = f <= 0 ? 0 : RegularizedGamma.P.value(half, commonTau * f / 2);
            }
            double exact = Double.NaN;
            String m = method + " r=" + multiplicity;
            if (a < 0 && epsilon >= 0) {
                // hard direction: Lemma 4 with leverage p = 1 - 1/tau = (tau - 1)/tau, evaluated by the calibration
                // package without cancellation (spec §5.5 "stable evaluation")
                exact = RandomProjectionCurve.delta(epsilon, -a / commonTau, multiplicity);
                m = "lemma4 r=" + multiplicity + (note.isEmpty() ? "" : " (" + note + ")");
            }
            return new Terms(p0, CLOSED_FORM_RELATIVE_ERROR * p0, p1, CLOSED_FORM_RELATIVE_ERROR * p1, exact, m);
        }

        private Terms generalizedChiSquare(double epsilon, String method) {
            double c = coefficients.c(epsilon);
            double t0 = -(c - s);
            double t1 = -(c - s + b0);
            Gx2Probability q0 = term0.atMost(t0);
            Gx2Probability q1 = term1.atMost(t1);
            return new Terms(q0.value(), q0.absoluteErrorBound(), q1.value(), q1.absoluteErrorBound(), Double.NaN,
                    method + "[" + q0.method() + "; " + q1.method() + "]");
        }
    }

    /**
     * Theorem 4.1's two probabilities with their error bounds; {@code exactDelta} is the value of a cancellation-free
     * closed form when one was used (NaN otherwise).
     */
    record Terms(double p0, double p0ErrorBound, double p1, double p1ErrorBound, double exactDelta, String method) {
    }

    /** One generalized chi-square term; all-negative weights are negated so that the tail is an sf call. */
    private record Term(GeneralizedChiSquare distribution, boolean negated) {

        static Term of(double[] weights, int[] dof, double[] nc, double sigma) {
            boolean allNegative = true;
            for (double w : weights) {
                allNegative &= w < 0;
            }
            if (allNegative) {
                double[] neg = new double[weights.length];
                for (int i = 0; i < neg.length; i++) {
                    neg[i] = -weights[i];
                }
                return new Term(GeneralizedChiSquare.of(neg, dof, nc, sigma), true);
            }
            return new Term(GeneralizedChiSquare.of(weights, dof, nc, sigma), false);
        }

        /** P[Q <= t]. */
        Gx2Probability atMost(double t) {
            return negated ? distribution.sfWithError(-t) : distribution.cdfWithError(t);
        }
    }
}
