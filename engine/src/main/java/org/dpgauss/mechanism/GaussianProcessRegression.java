package org.dpgauss.mechanism;

import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * Private Gaussian-process regression at one public query point (spec ndis §6.7, Def. 8, Prop. 8): release
 * {@code N(mu*, Sigma* + sigma*)} with {@code mu* = k*^T A^{-1} y}, {@code Sigma* = k** - k*^T A^{-1} k*},
 * {@code A = K + sigma_n^2 I}.
 *
 * <p><b>Guarantee.</b> {@code (epsilon, delta)}-DP under <b>add/remove</b> neighbours for records {@code (x, y)}
 * with {@code |y| <= B}, the RBF kernel ({@code k(x, x) = s^2 = l^2} for all x), and datasets of at most the public
 * size N (spec §11.2). Sensitivities (sigma a variance, m = 1): {@code Delta = l B sqrt(N) / (sigma_n sqrt(sigma))},
 * {@code rhoInf = nu = log((sigma + l^2)/sigma)}. Calibration: {@link NdisGaussianMechanism}; with m = 1 the exact
 * hard covariance term of the default bound is Lemma 4 with r = 1, whose monotonicity is Prop. 4.
 *
 * <p><b>The public bound N sets the noise.</b> Delta grows as {@code sqrt(N)}, so the calibrated noise variance
 * sigma* grows in proportion to N: at N = 100000 it is about 200 times that at N = 500 (same epsilon, delta, B,
 * sigma_n). Choose the smallest N that the data are sure not to exceed.
 *
 * <p><b>No failure after the data are read (issue 14, finding 4).</b> The noise variance is validated before any
 * data are read: {@code sigma_n^2 >= } {@link #minimumNoiseVariance}{@code (N, p, s^2) = 4 N (N + p + 8) u s^2}
 * ({@code u = 2^-53}, p inputs). This is Demmel's sufficient condition for the Cholesky factorisation of an SPD
 * matrix to succeed in floating point (Higham, <i>Accuracy and Stability of Numerical Algorithms</i>, Thm. 10.7:
 * the unit-diagonal scaling of A has smallest eigenvalue {@code >= sigma_n^2/(s^2 + sigma_n^2)}, which must exceed
 * about {@code n(n+1)u}) with room for the rounding of the kernel entries ({@code |error| <= (p + 6) u s^2} each,
 * so at most {@code n (p + 6) u s^2} in norm). Below it, the factorisation can fail on some data (duplicate rows make
 * K singular) and not on their neighbours. Should the factorisation fail nonetheless, the release falls back to the
 * prior predictive {@code (0, k**)}, which is covered by the same sensitivity: {@code |mu*(D)| <= sqrt(k*^T A^{-1}
 * k*) ||y|| / sigma_n <= l B sqrt(n) / sigma_n} and {@code 0 <= Sigma*(D) <= k** = l^2}. The same prior is
 * released when the n x n matrix does not fit in memory (more than {@link #MAX_FACTORISED_ROWS} rows, or an
 * allocation failure): the command line refuses such data before the release.
 *
 * <p><b>Input.</b> The dataset's rows are the p inputs followed by the label. The mechanism is defined on every
 * finite row: a label outside {@code [-B, B]} is clipped to it (a per-record map). A dataset of more than N rows is
 * reduced to a secret uniformly random N of them ({@code LabelledRows}: add/remove neighbours of at most N rows get
 * the stated guarantee, a pair with a larger neighbour that of two add/remove steps). No row is an error (issue 24,
 * item 5); {@code dpgauss validate --label-bound B --max-rows N} reports such rows, non-privately.
 *
 * <p>Cost: a Cholesky factorisation of the n x n matrix A (n^3/3 flops, n^2 doubles): intended for n up to a few
 * thousand (spec §10). Under the release contract it releases {@code prediction} (one value); it never FAILs.
 * Build it with {@link #builder()}. Immutable.
 */
public final class GaussianProcessRegression implements PrivateMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "mechanism.gpr";

    private static final double U = 0x1p-53;

    /** The most rows whose n x n matrix fits one Java array; more get the covered prior (class comment). */
    public static final int MAX_FACTORISED_ROWS = 46340;

    /** A positive-definite kernel with a public bound on its diagonal; only the RBF kernel ({@link #rbf}). */
    public sealed interface Kernel permits Rbf {
        /** @return k(a, b) */
        double value(double[] a, double[] b);

        /** @return {@code l^2 >= sup_x k(x, x)} */
        double diagonalBound();

        /** @return a short description */
        String describe();
    }

    /** The RBF kernel. */
    static final class Rbf implements Kernel {
        private final double variance;
        private final double lengthscale;

        Rbf(double variance, double lengthscale) {
            this.variance = variance;
            this.lengthscale = lengthscale;
        }

        @Override
        public double value(double[] a, double[] b) {
            double s = 0;
            for (int i = 0; i < a.length; i++) {
                double t = a[i] - b[i];
                s += t * t;
            }
            return variance * Math.exp(-s / (2 * lengthscale * lengthscale));
        }

        @Override
        public double diagonalBound() {
            return variance;
        }

        @Override
        public String describe() {
            return "rbf(variance=" + variance + ", lengthscale=" + lengthscale + ")";
        }
    }

    /**
     * The RBF kernel {@code k(a, b) = s^2 exp(-||a - b||^2 / (2 h^2))}, diagonal bound {@code s^2}.
     *
     * @param variance the signal variance {@code s^2 > 0}
     * @param lengthscale {@code h > 0}
     * @return the kernel
     */
    public static Kernel rbf(double variance, double lengthscale) {
        NdisBuilder.positive("variance", variance, "the RBF signal variance k(x,x) must be positive");
        NdisBuilder.positive("lengthscale", lengthscale, "the RBF lengthscale must be positive");
        if (!(2 * lengthscale * lengthscale > 0) || !Double.isFinite(2 * lengthscale * lengthscale)) {
            throw new IllegalArgumentException("lengthscale=" + lengthscale + ": 2 h^2 must be a positive finite"
                    + " double (rescale the inputs)");
        }
        return new Rbf(variance, lengthscale);
    }

    private final Kernel kernel;
    private final double noiseVariance;
    private final double labelBound;
    private final int maxRows;
    private final double[] query;
    private final ApproxDp budget;
    private final NdisGaussianMechanism mechanism;

    private GaussianProcessRegression(Kernel kernel, double noiseVariance, double labelBound, int maxRows,
            double[] query, ApproxDp budget, NdisGaussianMechanism mechanism) {
        this.kernel = kernel;
        this.noiseVariance = noiseVariance;
        this.labelBound = labelBound;
        this.maxRows = maxRows;
        this.query = query;
        this.budget = budget;
        this.mechanism = mechanism;
    }

    /** @return a builder; kernel, noiseVariance, labelBound, maxRows, query and budget are required */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The smallest GP noise variance accepted: {@code 4 N (N + p + 8) 2^-53 s^2} (see the class comment).
     *
     * @param maxRows the public maximum N
     * @param inputs the number p of inputs
     * @param kernelBound the kernel's diagonal bound {@code s^2}
     * @return the minimum {@code sigma_n^2}
     */
    public static double minimumNoiseVariance(int maxRows, int inputs, double kernelBound) {
        return 4.0 * maxRows * ((double) maxRows + inputs + 8) * U * kernelBound;
    }

    /** The sensitivity function of Prop. 8 (spec §6.7). */
    public static SensitivityFunction sensitivity(double l, double b, int n, double sigmaN) {
        return sigma -> {
            double rho = Math.log1p(l * l / sigma);
            return new NdisSensitivity(l * b * Math.sqrt(n) / (sigmaN * Math.sqrt(sigma)), rho, rho);
        };
    }

    /** @return the calibrated Gaussian mechanism */
    public NdisGaussianMechanism mechanism() {
        return mechanism;
    }

    /** @return the guarantee of one release, as the recipe certifies it */
    public PrivacyGuarantee guarantee() {
        return mechanism.guarantee("Gaussian-process regression at one public query point (spec ndis §6.7, Prop. 8),"
                + " " + kernel.describe() + ", |y| <= B (labels clipped to it), at most " + maxRows + " rows; "
                + LabelledRows.note(maxRows));
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.ADD_REMOVE;
    }

    @Override
    public Statement state(PublicContext context) {
        if (context.dimension() != query.length + 1) {
            throw new IllegalArgumentException("the data have " + context.dimension() + " columns but the query point"
                    + " has " + query.length + " coordinates: expected " + (query.length + 1) + " (the inputs plus"
                    + " the label column)");
        }
        PublicParameters.Builder p = PublicParameters.builder()
                .put("query", query)
                .put("kernel", kernel.describe())
                .put("gpNoiseVariance", noiseVariance)
                .put("labelBound", labelBound)
                .put("maxRows", maxRows)
                .put("epsilon", budget.epsilon())
                .put("delta", budget.delta());
        mechanism.putParameters(p);
        return Statement.builder(context, ID, guarantee())
                .description("private Gaussian-process prediction at the query point, NDIS-calibrated")
                .parameters(p.build())
                .accounting(Release.approxDp(ID, NeighbouringRelation.ADD_REMOVE, budget))
                .accuracy(accuracy())
                .build();
    }

    /** The probability of the stated accuracy bound. */
    public static final double ACCURACY_PROBABILITY = 0.95;

    /**
     * The a-priori accuracy of the released prediction, from public quantities only: its absolute difference from the
     * GP posterior mean {@code mu*} at the query point, in the labels' units. The prediction is
     * {@code mu* + Z}, {@code Z ~ N(0, Sigma* + sigma*)} with the posterior variance {@code 0 <= Sigma* <= k** = l^2}
     * for every dataset, so {@code |Z|} is at most {@code sqrt(sigma* + l^2)} times a standard half-normal variable:
     * expected {@code sqrt(2/pi) sqrt(sigma* + l^2)}, bound {@code 1.96 sqrt(sigma* + l^2)} at probability 0.95
     * (exact when no training input is near the query, {@code Sigma* = l^2}; at most {@code sqrt(sigma* / (sigma* +
     * l^2))} times smaller otherwise). The noise variance sigma* grows in proportion to N. Also in units of the label
     * bound B.
     *
     * @return the statement
     */
    public org.dpgauss.release.Accuracy accuracy() {
        double sigma2 = mechanism.variance();
        double l2 = kernel.diagonalBound();
        return org.dpgauss.release.Accuracy.isotropicGaussianL2("absolute difference of the released prediction from"
                + " the GP posterior mean mu* at the query point (labels' units)", Math.sqrt(sigma2 + l2), 1,
                ACCURACY_PROBABILITY, String.format(java.util.Locale.ROOT, "labels |y| <= B=%.4g, at most N=%d"
                        + " rows; the prediction is mu* + Z, Z ~ N(0, Sigma* + sigma*), sigma*=%.4g the calibrated"
                        + " noise variance (proportional to N), Sigma* <= k**=%.4g the prior variance (the statement"
                        + " takes Sigma* at that bound, exact when no training input is near the query; at most %.3g"
                        + " times smaller otherwise)", labelBound, maxRows, sigma2, l2,
                        Math.sqrt(sigma2 / (sigma2 + l2))))
                .alsoIn(String.format(java.util.Locale.ROOT, "B = %.4g (the public label bound)", labelBound),
                        labelBound);
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        double[][][] xy = records(data.matrix(), context.random());
        return Outcome.pass().vector("prediction", release(xy[0], xy[1][0], context.random())).build();
    }

    /**
     * Keeps at most N rows ({@link LabelledRows#kept}), splits them and clips the labels to {@code [-B, B]} (the
     * mechanism's per-record map).
     */
    double[][][] records(RowBlockMatrix m, RandomSource random) {
        int p = query.length;
        int[] kept = LabelledRows.kept(m, maxRows, random);
        int n = kept.length;
        double[][] x = new double[n][p];
        double[] y = new double[n];
        double[] row = new double[p + 1];
        for (int i = 0; i < n; i++) {
            m.copyRow(kept[i], row, 0);
            System.arraycopy(row, 0, x[i], 0, p);
            y[i] = Math.max(-labelBound, Math.min(labelBound, row[p]));
        }
        return new double[][][] {x, {y}};
    }

    /**
     * The GP posterior at the query point, {@code {mu*, Sigma*}} (non-private, for audits in this package); the
     * prior {@code {0, k**}} should the factorisation fail (covered; see the class comment).
     *
     * @param x inputs, n x p (n may be 0)
     * @param y labels, {@code |y| <= B}
     * @return {@code {mu*, Sigma*}}
     */
    double[] posterior(double[][] x, double[] y) {
        int n = x.length;
        double kss = kernel.value(query, query);
        double[] prior = {0, kss};
        if (n == 0 || n > MAX_FACTORISED_ROWS) {
            return prior;
        }
        DMatrixRMaj a;
        try {
            a = new DMatrixRMaj(n, n);
        } catch (OutOfMemoryError e) { // the n x n matrix does not fit: the covered prior (class comment)
            return prior;
        }
        DMatrixRMaj ks = new DMatrixRMaj(n, 1);
        for (int i = 0; i < n; i++) {
            ks.set(i, kernel.value(query, x[i]));
            for (int j = 0; j <= i; j++) {
                double v = kernel.value(x[i], x[j]);
                a.set(i, j, v);
                a.set(j, i, v);
            }
            a.add(i, i, noiseVariance);
        }
        LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.chol(n);
        if (!solver.setA(a)) {
            return prior;
        }
        DMatrixRMaj rhs = new DMatrixRMaj(n, 2);
        for (int i = 0; i < n; i++) {
            rhs.set(i, 0, y[i]);
            rhs.set(i, 1, ks.get(i));
        }
        DMatrixRMaj sol = new DMatrixRMaj(n, 2);
        solver.solve(rhs, sol);
        double mu = 0;
        double q = 0;
        for (int i = 0; i < n; i++) {
            mu += ks.get(i) * sol.get(i, 0);
            q += ks.get(i) * sol.get(i, 1);
        }
        if (!Double.isFinite(mu) || !Double.isFinite(q)) {
            return prior;
        }
        return new double[] {mu, Math.min(kss, Math.max(0, kss - q))};
    }

    /** The output distribution {@code N(mu*, Sigma* + sigma*)} (for audits; non-private). */
    Gaussian outputDistribution(double[][] x, double[] y) {
        double[] p = posterior(x, y);
        return mechanism.outputDistribution(new double[] {p[0]}, new DMatrixRMaj(1, 1, true, p[1]));
    }

    /** One private prediction at the query point; the computation behind {@link #compute}. */
    double[] release(double[][] x, double[] y, RandomSource random) {
        Objects.requireNonNull(random, "random source");
        double[] p = posterior(x, y);
        return mechanism.release(new double[] {p[0]}, new DMatrixRMaj(1, 1, true, p[1]), random);
    }

    /** Builds a {@link GaussianProcessRegression} from named parameters (nothing can be swapped silently). */
    public static final class Builder extends NdisBuilder<Builder> {
        private Kernel kernel;
        private Double noiseVariance;
        private Double labelBound;
        private double[] query;

        private Builder() {
        }

        /**
         * @param k the kernel (its diagonal bound is the public {@code l^2}), e.g. {@link #rbf}
         * @return this builder
         */
        public Builder kernel(Kernel k) {
            this.kernel = Objects.requireNonNull(k, "kernel");
            return this;
        }

        /**
         * @param sn2 the GP noise variance {@code sigma_n^2}, at least {@link #minimumNoiseVariance}
         * @return this builder
         */
        public Builder noiseVariance(double sn2) {
            this.noiseVariance = sn2;
            return this;
        }

        /**
         * @param b the public bound B &gt; 0 on {@code |y|}
         * @return this builder
         */
        public Builder labelBound(double b) {
            this.labelBound = b;
            return this;
        }

        /**
         * @param x the public query point x* (copied)
         * @return this builder
         */
        public Builder query(double[] x) {
            this.query = Objects.requireNonNull(x, "query").clone();
            return this;
        }

        /**
         * @return the calibrated mechanism
         * @throws IllegalArgumentException if a parameter is out of range
         * @throws IllegalStateException if a required parameter is missing
         */
        public GaussianProcessRegression build() {
            if (kernel == null || noiseVariance == null || labelBound == null || maxRows == null || query == null
                    || budget == null) {
                throw new IllegalStateException("kernel, noiseVariance, labelBound, maxRows, query and budget are"
                        + " required");
            }
            if (query.length == 0) {
                throw new IllegalArgumentException("the query point has no coordinates");
            }
            for (int j = 0; j < query.length; j++) {
                if (!Double.isFinite(query[j])) {
                    throw new IllegalArgumentException("query coordinate " + (j + 1) + " is " + query[j]
                            + ": the query point must be finite");
                }
            }
            positive("noiseVariance", noiseVariance, "the GP noise variance sigma_n^2 keeps A = K + sigma_n^2 I"
                    + " invertible and bounds the sensitivity");
            positive("labelBound", labelBound, "the public bound B on |y| must be positive");
            checkMaxRows("§6.7");
            double l2 = kernel.diagonalBound();
            positive("kernel.diagonalBound()", l2, "the bound l^2 on k(x,x) must be positive");
            double min = minimumNoiseVariance(maxRows, query.length, l2);
            if (!(noiseVariance >= min)) {
                throw new IllegalArgumentException("noiseVariance=" + noiseVariance + " is below the minimum "
                        + String.format(java.util.Locale.ROOT, "%.3g", min) + " = 4 N (N + p + 8) 2^-53 s^2 (N="
                        + maxRows + " maximum rows, p=" + query.length + " inputs, s^2=" + l2 + " the kernel"
                        + " variance): below it the factorisation of K + sigma_n^2 I can fail in floating point on"
                        + " some data (e.g. duplicate rows) and not on their neighbours; raise the noise variance");
            }
            SensitivityFunction f = sensitivity(Math.sqrt(l2), labelBound, maxRows, Math.sqrt(noiseVariance));
            return new GaussianProcessRegression(kernel, noiseVariance, labelBound, maxRows, query, budget,
                    NdisGaussianMechanism.calibrate(budget.epsilon(), budget.delta(), 1, f, variant));
        }
    }
}
