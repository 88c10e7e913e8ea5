package org.dpgauss.sampling;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.sampling.stable.StableCov;
import org.dpgauss.sampling.stable.StableCovResult;
import org.dpgauss.sampling.stable.StableRows;
import org.dpgauss.sampling.stable.StableMean;
import org.dpgauss.sampling.stable.StableMeanResult;
import org.ejml.data.DMatrixRMaj;

/**
 * The unbounded Gaussian sampler (Iverson, Kamath &amp; Mouzakis; Algorithm 2 of the arXiv version, spec
 * unbounded-gaussian-sampling §3.1): from n rows it releases <b>one</b> vector {@code Z in R^d} or FAIL, such that,
 * when the rows are i.i.d. {@code N(mu, Sigma)} with any mean and any full-rank covariance, the law of Z (over data
 * and algorithm) is within total variation {@code alpha} of {@code N(mu, Sigma)}.
 *
 * <p><b>Guarantee:</b> {@code (epsilon, delta)}-DP under <b>replace-one</b> neighbours (datasets of the same, public
 * size n differing in one row; add/remove is not covered, spec §1), for {@code epsilon <= 1},
 * {@code delta <= epsilon/10}, when the sizes come from the certified recipe of spec §2.2 and the PTR step is the
 * sound PTR-A ({@link PtrMechanism#SOUND}). With {@code --constants} sizes or the BHS23 PTR the output is
 * labelled uncertified. Budget (spec §5): PTR {@code (eps/3, delta/6)}, the reference set {@code delta/6}, the
 * release {@code (2 eps/3, 2 delta/3)}.
 *
 * <p><b>Steps</b> (spec §3.1; 0-based rows here, <b>in a secret uniformly random order</b> drawn first from the
 * noise source, {@link org.dpgauss.rows.SecretPermutation}: replace-one means "differ in one record, wherever it
 * sorts", issue 24). Rows {@code [0, n1)} feed StableMean, rows
 * {@code [n1, n1 + 2 n2)} feed StableCov as the pairs {@code Y_i = (X_{n1+i} - X_{n1+n2+i})/sqrt 2} (erratum E1);
 * R is a uniform M-subset of {@code [0, n1)} (E3); PTR on {@code max(Score1, Score2)}; on PASS
 * {@code Z = sum_i v_i X_i + sqrt((1 - 1/n1) n2) sum_i z_i sqrt(w_i) Y_i} with {@code z} uniform on the sphere
 * {@code S^{n2-1}}. Its law given the data is the bounded-support Pearson type II of spec §4; only over fresh
 * datasets is it close to {@code N(mu, Sigma)}.
 *
 * <p><b>Randomness</b> (all from the {@link RandomSource}, {@code SecureRandom} by default, drawn independently of
 * the data): R by Floyd's algorithm with exact {@link RandomSource#nextInt(int)} draws; the PTR coin as an exact
 * Bernoulli ({@link PtrMechanism}); {@code z = G/||G||} with G from {@link SecureGaussianSampler} at
 * {@code sigma = 1}, fed by a ChaCha20 keystream keyed with 256 bits from the source ({@link RandomSource#chaCha20KeyedFrom}; 4-5
 * times faster than reading SecureRandom for each of the n2 draws): exact discrete Gaussians with parameter
 * {@code 2^20} on the grid {@code 2^-20}, drawn in integer arithmetic (CKS20), so G differs from {@code N(0, I)} only by a discretisation far below {@code 1e-6}
 * per coordinate, and its direction is uniform on the sphere up to that. The final combination is floating point,
 * which no proof covers (spec §9).
 *
 * <p><b>Release contract</b> ({@link PrivateMechanism}): releases {@code sample}; the guarantee composes the budget
 * split above through the accountant. StableCov, StableMean, the PTR test and the output combination run on every
 * input, and the output is discarded on FAIL, so the work done does not depend on the test's outcome (an earlier
 * version returned before StableMean when Score1 alone decided the FAIL, which its latency revealed); timing side
 * channels in general are outside the guarantee.
 *
 * <p>Immutable; thread-safe if the {@link RandomSource} and engine are.
 */
public final class UnboundedGaussianSampler implements org.dpgauss.rows.RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "sample.unbounded-gaussian";

    /** What a FAIL of a PTR-guarded mechanism can mean, in public words. */
    static final String FAIL_MEANING = "the private stability test (PTR) failed: the data may be too few for the"
            + " sizes used, or not Gaussian-like enough for the stable estimates (outliers, heavy tails, a nearly"
            + " singular covariance); more rows make a PASS likelier (see the README, dpgauss sample)";

    private final SamplerParameters parameters;

    private UnboundedGaussianSampler(SamplerParameters parameters) {
        this.parameters = parameters;
    }

    /**
     * @param parameters from {@link SamplerParameters#certified} or {@link SamplerParameters#withConstants}
     * @return the sampler
     */
    public static UnboundedGaussianSampler of(SamplerParameters parameters) {
        return new UnboundedGaussianSampler(Objects.requireNonNull(parameters, "parameters"));
    }

    /** @return the parameters */
    public SamplerParameters parameters() {
        return parameters;
    }

    /**
     * The guarantee of a release: the recipe's certification (the random source is judged by
     * {@link org.dpgauss.release.Releases}).
     *
     * @return {@code (epsilon, delta)}-DP, replace-one; certified only with recipe sizes and the sound PTR
     */
    public PrivacyGuarantee guarantee() {
        return guarantee(parameters);
    }

    static PrivacyGuarantee guarantee(SamplerParameters p) {
        List<String> why = new ArrayList<>();
        if (p.constants() == null && p.ptr().isDifferentiallyPrivate() && !p.releaseTermsBounded()) {
            why.add("the release-term loss bounds exceed eps/3 at these sizes"); // never seen at recipe sizes
        }
        if (p.constants() != null) {
            why.add("sizes from --constants " + p.constants() + ", not the certified recipe of spec §2.2");
        }
        if (!p.ptr().isDifferentiallyPrivate()) {
            why.add("PTR rule bhs23-as-published is NOT differentially private (spec §3.6)");
        }
        boolean certified = why.isEmpty();
        String notes = certified
                ? "certified recipe of spec §2.2 with the sound PTR of §3.6; release terms checked with explicit "
                        + "tail bounds (stability lemmas of BHS23 with k raised per §2.3; floating-point arithmetic "
                        + "is not covered)"
                : "UNCERTIFIED: " + String.join("; ", why)
                        + "; floating-point arithmetic is not covered (docs/design/floating-point-scope.md)";
        return PtrSteps.guarantee(p.epsilon(), p.delta(), certified, notes);
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    @Override
    public Statement state(PublicContext context) {
        checkShape(context, parameters.n(), parameters.d());
        Statement.Builder b = Statement.builder(context, ID, guarantee())
                .description("one private sample from (approximately) the data's Gaussian, unbounded Gaussian"
                        + " sampler")
                .parameters(parameters.publicParameters())
                .failMeaning(FAIL_MEANING);
        accuracy().ifPresent(b::accuracy);
        return b.build();
    }

    /**
     * The a-priori accuracy: the Mahalanobis distance of the sample to the true mean, w.r.t. the true covariance.
     * When the rows are i.i.d. Gaussian the sample is a draw from {@code N(mu, Sigma)} except with probability
     * alpha (FAIL included; exactly so on the event that both stability scores are 0), so the distance is chi with
     * d degrees of freedom: expected about {@code sqrt(d)}, at most the 95% quantile of chi_d with probability
     * {@code 0.95 - alpha}.
     *
     * @return the statement (empty only for alpha &gt;= 0.9)
     */
    public java.util.Optional<org.dpgauss.release.Accuracy> accuracy() {
        SamplerParameters p = parameters;
        return MahalanobisAccuracy.sample(p.d(), p.alpha(), "the rows are i.i.d. Gaussian (any mean, full-rank"
                + " covariance), so that the sample is a draw from N(mu, Sigma) except with probability alpha="
                + p.alpha() + " (FAIL included)" + (p.constants() != null ? " (sizes from --constants: the alpha"
                        + " claim is not certified)" : ""));
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return sample(data.matrix(), context.engine(), context.random())
                .map(v -> Outcome.pass().vector("sample", v).build()).orElse(Outcome.fail());
    }

    /** The rows must be the n x d the parameters were computed for (finite by the row source's contract). Public facts only; run by compute, after the charge (issue 24). */
    void validate(org.dpgauss.rows.RowSource rows, Statement stated) {
        checkShape(rows, parameters.n(), parameters.d());
    }

    /**
     * The sampler as row passes ({@link org.dpgauss.rows.RowSourceMechanism}: rows held by a cluster), with the same
     * noise draws in the same order as {@link #run}: the secret row order ({@link org.dpgauss.rows.SecretPermutation},
     * applied with {@link org.dpgauss.rows.RowSource#select}), R, z, then the PTR coin. The mean part is the rows at
     * positions {@code 0..n1-1} of the secret order, the covariance part the next {@code 2 n2} (paired by position
     * in that order); StableCov and StableMean run as {@link StableRows} passes. On one block the release
     * has the bits of {@link #compute(Dataset, Statement, ReleaseContext)}.
     */
    @Override
    public Outcome compute(org.dpgauss.rows.RowSource rows, Statement stated, ReleaseContext context) {
        validate(rows, stated);
        ComputeEngine engine = Objects.requireNonNull(context.engine(), "engine");
        RandomSource random = Objects.requireNonNull(context.random(), "random");
        SamplerParameters p = parameters;
        // the secret row order first (issue 24 item 4): the split and the pairs follow it, not the id order
        org.dpgauss.rows.RowSource permuted = org.dpgauss.rows.SecretPermutation.apply(rows, random);
        org.dpgauss.rows.RowSource x = permuted.map((b, e) -> bounded(b));
        int n1 = p.n1();
        int n2 = p.n2();
        int[] reference = uniformSubset(n1, p.referenceSize(), random);
        double[] z = uniformOnSphere(n2, random);
        org.dpgauss.rows.RowSource meanPart = x.slice(0, n1);
        org.dpgauss.rows.RowSource pairs = x.pairs(n1, n1 + 2L * n2);
        try {
            StableRows.Cov cov = StableRows.stableCov(pairs, p.lambda0(), p.k(), engine);
            StableRows.Mean mean = StableRows.stableMean(meanPart, cov.sigmaHat(), reference, p.lambda0(), p.k(),
                    engine);
            boolean passed = p.ptr().test(Math.max(cov.score(), mean.score()), p.epsilon() / 3, p.delta() / 6,
                    random);
            double c = p.releaseScale();
            double[] wz = cov.combine(z);
            double[] muHat = mean.weightedMean();
            double[] out = new double[p.d()];
            for (int j = 0; j < out.length; j++) {
                out[j] = muHat[j] + c * wz[j];
            }
            Optional<double[]> formed = finiteOrFail(out);
            return passed && formed.isPresent() ? Outcome.pass().vector("sample", formed.get()).build()
                    : Outcome.fail();
        } finally {
            pairs.discard();
            meanPart.discard();
            permuted.discard();
        }
    }

    /** The public shape check of a statement: n and d must be those the parameters were computed for. */
    static void checkShape(PublicContext context, int n, int d) {
        if (context.rows() != n || context.dimension() != d) {
            throw new IllegalArgumentException("the data are " + context.rows() + " x " + context.dimension()
                    + " but the parameters were computed for n=" + n + ", d=" + d);
        }
    }

    /** The shape check of rows held by a row source: n and d must be those the parameters were computed for. */
    static void checkShape(org.dpgauss.rows.RowSource rows, int n, int d) {
        if (rows.rows() != n || rows.cols() != d) {
            throw new IllegalArgumentException("the data are " + rows.rows() + " x " + rows.cols()
                    + " but the parameters were computed for n=" + n + ", d=" + d);
        }
    }

    /**
     * Runs the sampler.
     *
     * @param x the data, {@code n x d} as in the parameters, finite entries
     * @param engine the compute engine
     * @param random the randomness ({@link RandomSource#secure()} for a private release)
     * @return the sample, or empty on FAIL (nothing else); package-private: releases go through {@link #compute}
     */
    Optional<double[]> sample(RowBlockMatrix x, ComputeEngine engine, RandomSource random) {
        return run(x, engine, random).release;
    }

    /** Everything the run computed; for tests of spec §6 (T1, T3, T9) only, never released. */
    static final class Trace {
        int score1 = -1;
        int score2 = -1;
        /** The secret row order: row i of the algorithm is the data's row {@code order[i]}. */
        int[] order;
        double[] w;
        double[] v;
        int[] reference;
        double[] z;
        double[] muHat;
        DMatrixRMaj sigmaHat;
        boolean passed;
        Optional<double[]> release;
    }

    Trace run(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        SamplerParameters p = parameters;
        checkData(data, p.n(), p.d());
        // The secret row order first (issue 24 item 4, org.dpgauss.rows.SecretPermutation): the rows' own order
        // is data (a file sorted by a column, Spark's id order), so the split into the mean and covariance parts
        // and the pairs follow a uniform permutation drawn from the noise source, and a record replaced by one
        // that sorts elsewhere changes one row of the permuted tuple in law, not every later pair.
        int[] order = org.dpgauss.rows.SecretPermutation.draw(data.rows(), random);
        Trace t = runInOrder(data.selectRows(order), engine, random);
        t.order = order;
        return t;
    }

    /**
     * The algorithm on rows already in the secret order (the rest of {@link #run}); for the tests of the law given
     * one ordered tuple (spec §4) only: a release reads the rows in a secret order.
     */
    Trace runInOrder(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        SamplerParameters p = parameters;
        checkData(data, p.n(), p.d());
        RowBlockMatrix x = bounded(data);
        int n1 = p.n1();
        int n2 = p.n2();
        Trace t = new Trace();
        // Random objects first and independent of the data (spec §3): the order, R, then z.
        t.reference = uniformSubset(n1, p.referenceSize(), random);
        t.z = uniformOnSphere(n2, random);

        RowBlockMatrix meanPart = x.selectRows(range(0, n1));
        RowBlockMatrix covPart = x.selectRows(range(n1, n1 + 2 * n2));
        StableCovResult cov = StableCov.of(p.lambda0(), p.k()).apply(covPart, engine);
        t.score1 = cov.score();
        t.w = cov.weights();
        double epsPtr = p.epsilon() / 3;
        double deltaPtr = p.delta() / 6;
        // StableMean runs even when Score1 alone already decides a FAIL (failure probability 1): the same work on
        // both branches, so the latency does not reveal the outcome of the test (issue 14, finding 7).
        t.sigmaHat = cov.sigmaHat();
        StableMeanResult mean = StableMean.of(p.lambda0(), p.k()).apply(meanPart, t.sigmaHat, t.reference, engine);
        t.score2 = mean.score();
        t.v = mean.weights();
        t.muHat = mean.weightedMean(meanPart);
        t.passed = p.ptr().test(Math.max(t.score1, t.score2), epsPtr, deltaPtr, random);
        // the output is formed on both branches and discarded on FAIL
        double c = p.releaseScale();
        double[] wz = cov.combine(t.z);
        double[] out = new double[p.d()];
        for (int j = 0; j < out.length; j++) {
            out[j] = t.muHat[j] + c * wz[j];
        }
        Optional<double[]> formed = finiteOrFail(out);
        t.release = t.passed ? formed : Optional.empty();
        return t;
    }

    /**
     * Spec §9: NaN/Inf after PASS cannot happen in exact arithmetic; return FAIL. Spec §9 also says "log it as a
     * bug", but deliberately nothing is logged: a log line (stderr by default) would make this FAIL
     * distinguishable from a PTR FAIL and tell that the PTR step PASSED on these data (review revbhs; design.md:
     * a FAIL carries nothing else). It happens in floating point when the data are near the double range (rows of
     * 1.8e308 overflow the weighted mean).
     */
    static Optional<double[]> finiteOrFail(double[] out) {
        for (double v : out) {
            if (!Double.isFinite(v)) {
                return Optional.empty();
            }
        }
        return Optional.of(out);
    }

    // ------------------------------------------------------------------ random primitives (spec §3.7)

    /**
     * A uniform M-subset of {@code [0, n)} by Floyd's algorithm (each subset has probability {@code 1/C(n, M)};
     * exact integer draws), sorted.
     */
    static int[] uniformSubset(int n, int m, RandomSource random) {
        if (m > n || m < 0) {
            throw new IllegalArgumentException("M=" + m + " is outside [0, n=" + n + "]: R is an M-subset of [n1]");
        }
        java.util.BitSet chosen = new java.util.BitSet(n);
        for (int j = n - m; j < n; j++) {
            int t = random.nextInt(j + 1);
            chosen.set(chosen.get(t) ? j : t);
        }
        int[] out = new int[m];
        int i = 0;
        for (int b = chosen.nextSetBit(0); b >= 0; b = chosen.nextSetBit(b + 1)) {
            out[i++] = b;
        }
        return out;
    }

    /**
     * {@code z = G/||G||} with G of n independent secure Gaussian draws (see the class comment), from a ChaCha20
     * keystream keyed by {@code random} ({@link RandomSource#chaCha20KeyedFrom}); redrawn in the (impossible in practice) case
     * {@code G = 0}.
     */
    static double[] uniformOnSphere(int n, RandomSource random) {
        SecureGaussianSampler s = SecureGaussianSampler.using(RandomSource.chaCha20KeyedFrom(random));
        double[] g = new double[n];
        double norm;
        do {
            s.sample(g, 1.0);
            double ss = 0;
            for (double v : g) {
                ss += v * v;
            }
            norm = Math.sqrt(ss);
        } while (norm == 0);
        for (int i = 0; i < n; i++) {
            g[i] /= norm;
        }
        return g;
    }

    static int[] range(int from, int to) {
        int[] idx = new int[to - from];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = from + i;
        }
        return idx;
    }

    /**
     * The largest magnitude an entry is given before the stable estimates: {@code 2^480 / sqrt(d)}. Entries beyond it
     * are clamped to it, a fixed function of their row (so privacy is unaffected; only absurdly scaled data meet it),
     * so that no Gram entry, squared distance or Mahalanobis norm can overflow to infinity: an entry of 1e300 used to
     * end the run with an error after the data were read, which its neighbour without that row did not.
     *
     * @param d the dimension
     * @return the bound
     */
    static double maxEntry(int d) {
        return Math.scalb(1.0, 480) / Math.ceil(Math.sqrt(d));
    }

    /** x with its entries clamped to {@link #maxEntry}; x itself when no entry exceeds it. */
    static RowBlockMatrix bounded(RowBlockMatrix x) {
        int d = x.cols();
        double b = maxEntry(d);
        boolean over = false;
        for (int k = 0; k < x.blockCount() && !over; k++) {
            double[] blk = x.block(k);
            int len = x.blockRowCount(k) * d;
            for (int i = 0; i < len && !over; i++) {
                over = !(Math.abs(blk[i]) <= b);
            }
        }
        if (!over) {
            return x;
        }
        RowBlockMatrix y = RowBlockMatrix.zeros(x.rows(), d, x.blockRows());
        double[] row = new double[d];
        for (int r = 0; r < x.rows(); r++) {
            x.copyRow(r, row, 0);
            for (int j = 0; j < d; j++) {
                row[j] = Math.max(-b, Math.min(b, row[j]));
            }
            y.setRow(r, row);
        }
        return y;
    }

    /** Shape and finiteness: bad input is an error, never silently repaired. */
    static void checkData(RowBlockMatrix x, int n, int d) {
        Objects.requireNonNull(x, "x");
        if (x.rows() != n || x.cols() != d) {
            throw new IllegalArgumentException("the data are " + x.rows() + " x " + x.cols()
                    + " but the parameters were computed for n=" + n + ", d=" + d);
        }
        for (int b = 0; b < x.blockCount(); b++) {
            double[] blk = x.block(b);
            int len = x.blockRowCount(b) * d;
            for (int k = 0; k < len; k++) {
                if (!Double.isFinite(blk[k])) {
                    int row = x.blockStart(b) + k / d;
                    throw new IllegalArgumentException("data row " + row + ", column " + (k % d) + " is not"
                            + " finite: every entry must be finite");
                }
            }
        }
    }
}
