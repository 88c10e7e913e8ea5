package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.MultivariateGaussianNoise;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.sampling.stable.StableMean;
import org.dpgauss.sampling.stable.StableMeanResult;
import org.dpgauss.sampling.stable.StableRows;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;

/**
 * <b>SKETCH, uncertified:</b> the known-covariance variant of the sampler (arXiv Remark 4.24, spec
 * unbounded-gaussian-sampling §3.9). The paper only sketches it and gives no output formula and no proof; every
 * output of this class is labelled {@code certified: false}.
 *
 * <p>What it does [IMPL]: drop StableCov; run StableMean on all n rows with the known {@code Sigma} in place of
 * {@code Sigma^} (so {@code n1 = n}); PTR {@code (eps/3, delta/6)} on Score2; on PASS release
 * {@code Z = mu^ + N(0, (1 - 1/n) Sigma)} (the "natural choice" of spec §3.9: with uniform weights
 * {@code Z ~ N(mu, Sigma/n + (1 - 1/n) Sigma) = N(mu, Sigma)} exactly, and unlike the main sampler Z is Gaussian given
 * the data).
 *
 * <p>Intended guarantee (not proven): {@code (epsilon, delta)}-DP under <b>replace-one</b> neighbours, by the
 * structure of BHS23 Lemma 15: reference set {@code delta/6}, PTR {@code (eps/3, delta/6)}, and the release as a
 * Gaussian mechanism whose Mahalanobis sensitivity is S2's {@code sqrt(38 e^2 lambda0)/n} (gamma = 0, the
 * covariance is fixed), divided by {@code sqrt(1 - 1/n)}; the size check asks the exact Gaussian-mechanism curve
 * for {@code delta_GM(2 eps/3; Delta) <= 2 delta/3}, plus {@code n >= 32 e^2 k} and {@code n >= M}. Below that n
 * the constructor throws with the n needed.
 *
 * <p><b>Release contract</b> ({@link org.dpgauss.release.PrivateMechanism}): releases {@code sample}; the intended split composes through
 * the accountant and is always stated uncertified. The noise and the output are formed on both branches of the PTR
 * test and discarded on FAIL; timing side channels in general are outside the (intended) guarantee. Immutable.
 */
public final class KnownCovarianceSampler implements org.dpgauss.rows.RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "sample.known-covariance";

    private final int n;
    private final int d;
    private final double epsilon;
    private final double delta;
    private final double lambda0;
    private final PtrMechanism ptr;
    private final int k;
    private final int referenceSize;
    private final DMatrixRMaj sigma;
    private final double alpha;

    private KnownCovarianceSampler(int n, int d, double epsilon, double delta, double alpha, PtrMechanism ptr,
            DMatrixRMaj sigma) {
        this.alpha = alpha;
        this.n = n;
        this.d = d;
        this.epsilon = epsilon;
        this.delta = delta;
        this.lambda0 = SamplerParameters.lambda0(n, d, alpha);
        this.ptr = ptr;
        this.k = SamplerParameters.k(ptr, epsilon, delta);
        this.referenceSize = SamplerParameters.referenceSize(k, n, delta);
        this.sigma = sigma;
    }

    /**
     * @param n rows
     * @param d dimension
     * @param target the (epsilon, delta) target, a typed pair (epsilon: in {@code (0, 1]})
     *        (delta: in {@code (0, epsilon/10]})
     * @param alpha sets lambda0 as in spec §2.1
     * @param ptr the PTR rule
     * @param sigma the known covariance, {@code d x d}, symmetric positive definite, copied
     * @return the sampler
     * @throws InsufficientSampleSizeException below the size the sketch's calibration needs
     */
    public static KnownCovarianceSampler of(int n, int d, ApproxDp target, double alpha,
            PtrMechanism ptr, DMatrixRMaj sigma) {
        double epsilon = Objects.requireNonNull(target, "target (epsilon, delta)").epsilon();
        double delta = target.delta();
        SamplerParameters.validate(n, d, epsilon, delta, alpha, ptr);
        Objects.requireNonNull(sigma, "sigma");
        if (sigma.numRows != d || sigma.numCols != d) {
            throw new IllegalArgumentException("the known covariance is " + sigma.numRows + " x " + sigma.numCols
                    + " but the data have d=" + d + " columns");
        }
        checkPositiveDefinite(sigma);
        if (!sizeHolds(n, d, epsilon, delta, alpha, ptr)) {
            long need = requiredRows(d, epsilon, delta, alpha, ptr);
            throw new InsufficientSampleSizeException(String.format(Locale.ROOT, "n=%d is below the %s rows the "
                    + "known-covariance sketch (spec §3.9) needs for d=%d, eps=%s, delta=%s: n >= 32 e^2 k, n >= M and "
                    + "delta_GM(2eps/3; sqrt(38 e^2 lambda0)/(n sqrt(1-1/n))) <= 2 delta/3", n,
                    SamplerParameters.sci(need), d, epsilon, delta), need);
        }
        return new KnownCovarianceSampler(n, d, epsilon, delta, alpha, ptr, sigma.copy());
    }

    static boolean sizeHolds(long n, int d, double epsilon, double delta, double alpha, PtrMechanism ptr) {
        int k = SamplerParameters.k(ptr, epsilon, delta);
        if (n < 2 || n < 32 * SamplerParameters.E2 * k || n < SamplerParameters.referenceSize(k, n, delta)) {
            return false;
        }
        double lambda0 = SamplerParameters.lambda0(n, d, alpha);
        double shift = Math.sqrt(38 * SamplerParameters.E2 * lambda0) / (n * Math.sqrt(1 - 1.0 / n));
        return GaussianMechanismCurve.delta(2 * epsilon / 3, shift) <= 2 * delta / 3;
    }

    /**
     * @param d dimension
     * @param epsilon eps
     * @param delta delta
     * @param alpha alpha
     * @param ptr the PTR rule
     * @return the smallest n the sketch's size check accepts (doubling, then bisection; the check is monotone)
     */
    public static long requiredRows(int d, double epsilon, double delta, double alpha, PtrMechanism ptr) {
        return SamplerParameters.smallestRows(n -> sizeHolds(n, d, epsilon, delta, alpha, ptr),
                "no n below 2^50 passes the known-covariance size check for d=" + d);
    }

    /**
     * @return the (always uncertified) intended guarantee of a release, composed by the accountant
     */
    public PrivacyGuarantee guarantee() {
        String notes = "UNCERTIFIED: known-covariance variant is a sketch (spec §3.9, arXiv Remark 4.24) without a "
                + "proof; intended (epsilon, delta) shown"
                + (ptr.isDifferentiallyPrivate() ? "" : "; PTR rule bhs23-as-published is NOT differentially private");
        return PtrSteps.guarantee(epsilon, delta, false, notes);
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    @Override
    public Statement state(PublicContext context) {
        UnboundedGaussianSampler.checkShape(context, n, d);
        Statement.Builder b = Statement.builder(context, ID, guarantee())
                .description("one private sample, known-covariance variant (SKETCH, spec §3.9)")
                .parameters(publicParameters())
                .failMeaning(UnboundedGaussianSampler.FAIL_MEANING);
        accuracy().ifPresent(b::accuracy);
        return b.build();
    }

    /**
     * The a-priori accuracy: the Mahalanobis distance of the sample to the true mean w.r.t. the true covariance. When
     * the rows are i.i.d. {@code N(mu, Sigma)} with Sigma the known covariance and the stability score is 0 (no
     * outlier, probability at least 1 - alpha), {@code Z = mean + N(0, (1 - 1/n) Sigma) ~ N(mu, Sigma)} exactly, so
     * the distance is chi_d (see {@link UnboundedGaussianSampler#accuracy()}).
     *
     * @return the statement (empty only for alpha &gt;= 0.9)
     */
    public java.util.Optional<org.dpgauss.release.Accuracy> accuracy() {
        return MahalanobisAccuracy.sample(d, alpha, "the rows are i.i.d. Gaussian with exactly the given covariance"
                + " (any mean), so that the sample is a draw from N(mu, Sigma) except with probability alpha=" + alpha
                + " (FAIL included)");
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return sample(data.matrix(), context.engine(), context.random())
                .map(v -> Outcome.pass().vector("sample", v).build()).orElse(Outcome.fail());
    }

    /** The rows must be the n x d the parameters were computed for (finite by the row source's contract). Public facts only; run by compute, after the charge (issue 24). */
    void validate(org.dpgauss.rows.RowSource rows, Statement stated) {
        UnboundedGaussianSampler.checkShape(rows, n, d);
    }

    /**
     * The sketch as row passes (rows held by a cluster), with the noise draws of {@link #sample} in the same order
     * (R, the PTR coin, the Gaussian noise): StableMean runs as {@link StableRows} passes on all n rows with the
     * known Sigma. On one block the release has the bits of {@link #compute(Dataset, Statement, ReleaseContext)};
     * on more, those of the rows in memory in the same layout, and the in-memory release's to rounding.
     */
    @Override
    public Outcome compute(org.dpgauss.rows.RowSource rows, Statement stated, ReleaseContext context) {
        validate(rows, stated);
        ComputeEngine engine = Objects.requireNonNull(context.engine(), "engine");
        RandomSource random = Objects.requireNonNull(context.random(), "random");
        org.dpgauss.rows.RowSource x = rows.map((b, e) -> UnboundedGaussianSampler.bounded(b));
        int[] reference = UnboundedGaussianSampler.uniformSubset(n, referenceSize, random);
        StableRows.Mean mean = StableRows.stableMean(x, sigma, reference, lambda0, k, engine);
        boolean passed = ptr.test(mean.score(), epsilon / 3, delta / 6, random);
        double[] out = release(mean.weightedMean(), random);
        return passed && out != null ? Outcome.pass().vector("sample", out).build() : Outcome.fail();
    }

    /** {@code mean + N(0, (1 - 1/n) Sigma)}, or null when not finite (then FAIL, see the unbounded sampler). */
    private double[] release(double[] muHat, RandomSource random) {
        DMatrixRMaj scaled = sigma.copy();
        org.ejml.dense.row.CommonOps_DDRM.scale(1 - 1.0 / n, scaled);
        double[] noise = MultivariateGaussianNoise.ofCovariance(scaled, random).sample();
        double[] out = new double[d];
        boolean finite = true;
        for (int j = 0; j < d; j++) {
            out[j] = muHat[j] + noise[j];
            finite &= Double.isFinite(out[j]);
        }
        return finite ? out : null;
    }

    /**
     * Runs the sketch; the noise and the output are formed on both branches of the test (discarded on FAIL).
     *
     * @param x the data, {@code n x d}
     * @param engine the engine
     * @param random the randomness
     * @return the sample, or empty on FAIL; package-private: releases go through {@link #compute}
     */
    Optional<double[]> sample(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        UnboundedGaussianSampler.checkData(data, n, d);
        RowBlockMatrix x = UnboundedGaussianSampler.bounded(data); // clamped to a huge public bound (no overflow)
        int[] reference = UnboundedGaussianSampler.uniformSubset(n, referenceSize, random);
        StableMeanResult mean = StableMean.of(lambda0, k).apply(x, sigma, reference, engine);
        boolean passed = ptr.test(mean.score(), epsilon / 3, delta / 6, random);
        double[] out = release(mean.weightedMean(x), random);
        return passed && out != null ? Optional.of(out) : Optional.empty();
    }

    /** @return the public parameters of a release (camelCase) */
    public PublicParameters publicParameters() {
        return PublicParameters.builder()
                .put("n", n)
                .put("d", d)
                .put("epsilon", epsilon)
                .put("delta", delta)
                .put("ptr", ptr.id())
                .put("lambda0", lambda0)
                .put("k", k)
                .put("referenceSize", referenceSize)
                .put("variant", "known covariance (SKETCH, spec §3.9)")
                .build();
    }

    private static void checkPositiveDefinite(DMatrixRMaj s) {
        int d = s.numRows;
        double max = 0;
        for (int i = 0; i < d * d; i++) {
            if (!Double.isFinite(s.data[i])) {
                throw new IllegalArgumentException("the known covariance has a non-finite entry (element " + i + ")");
            }
            max = Math.max(max, Math.abs(s.data[i]));
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                if (Math.abs(s.get(i, j) - s.get(j, i)) > 1e-12 * max) {
                    throw new IllegalArgumentException("the known covariance is not symmetric: entry (" + i + "," + j
                            + ")=" + s.get(i, j) + " but (" + j + "," + i + ")=" + s.get(j, i));
                }
            }
        }
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(d, true);
        boolean ok = chol.decompose(s.copy());
        if (ok) {
            DMatrixRMaj l = chol.getT(null);
            for (int i = 0; i < d && ok; i++) {
                ok = l.get(i, i) > 1e-12 * Math.sqrt(max) && Double.isFinite(l.get(i, i));
            }
        }
        if (!ok) {
            throw new IllegalArgumentException("the known covariance is not positive definite: StableMean measures "
                    + "distances in its inverse (spec §3.5), so it must have full rank");
        }
    }
}
