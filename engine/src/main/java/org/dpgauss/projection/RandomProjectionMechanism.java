package org.dpgauss.projection;

import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
import org.ejml.data.DMatrixRMaj;

/**
 * The random projection mechanism M_RP (spec ndis §6.1, Figure 1; Theorem 5.1): release
 * {@code M = D̄^T G = D^T G1 + sqrt(lambda) G2} ({@code d x r}) with {@code D̄ = [D ; sqrt(lambda) I_d]} and
 * {@code G = [G1 ; G2]} an {@code (n+d) x r} matrix of independent standard normals.
 *
 * <p><b>Guarantee.</b> {@code (epsilon, delta)}-DP under <b>add/remove-one-row</b> neighbours, provided every row
 * of every database has L2 norm at most the public bound {@code l} (up to its public slack, below). The ridge
 * {@code lambda = l'^2 / p*} with {@code p* = p*(eps, delta; r)} of {@link RandomProjectionCurve#leverageBound}
 * depends only on {@code (eps, delta, r, l)}; every row v of the larger database has leverage
 * {@code v^T (D^T D + lambda I)^{-1} v <= ||v||^2/lambda <= p*} in D̄, so Lemma 4 and Prop. 4 bound the removal
 * direction by {@code delta^gRP_r(eps; p*) <= delta} and Lemma 3 the addition direction (spec §6.1).
 *
 * <p><b>Row bound and its slack.</b> Rows normalised to the l-ball in floating point may exceed l by a few ulps;
 * rows whose computed squared norm is at most {@code l^2 (1 + 2^-40)} are accepted as they are, and the ridge is
 * calibrated for {@code l' = l (1 + 2^-40)} so the claim covers them (see {@code BoundedRows}; the ridge grows by a
 * relative {@code 2^-39}). Rows beyond that are scaled onto the ball of radius l (a per-row map, so the guarantee
 * holds for every finite input), with or without {@link #clippingRows(boolean) clippingRows(true)}, which only
 * declares that such rows are expected (issue 24, item 5: a row above the bound is never an error one neighbour
 * triggers; {@code dpgauss validate --row-bound} reports them, non-privately, before a release). How many rows
 * were clipped is a function of the data and is <b>not</b> reported.
 *
 * <p><b>Release contract.</b> A {@link PrivateMechanism}: it releases {@code projection} (the {@code d x r} matrix
 * M) with public parameters {@code d}, {@code rank}, {@code rowBound}, {@code rowBoundSlack},
 * {@code effectiveRowBound}, {@code leverage}, {@code ridge}, {@code clipRows} and, when given, {@code maxRows};
 * it never FAILs. It states the a-priori accuracy of the Gram estimate ({@link #accuracy(int)}, from public
 * quantities only): absolute with a public bound on the number of rows ({@link #maxRows(long)}), relative to
 * {@code ||D^T D|| + lambda} without one (see {@code GramAccuracy}). The only
 * exception {@link #compute} raises is the row-bound rejection above (when clipping is off): input validation,
 * made before any randomness is drawn. Use {@link ProjectionRelease#of} for the Gram estimate of a release.
 *
 * <p><b>Randomness.</b> G is generated on the fly ({@link ComputeEngine#gaussianProjection}: entry
 * {@code (i, j)} of G is normal number {@code i*r + j} of a {@link ChaCha20} stream; rows {@code n..n+d-1} are
 * G2) under a fresh 256-bit key drawn from the {@link RandomSource} ({@link RandomSource#secure()} =
 * SecureRandom by default). The key lives in a local array that is zeroed after the generator is built, and is
 * never printed, logged or returned. With {@link RandomSource#insecureSeeded} (the CLI's {@code --insecure-seed})
 * the projection is reproducible and {@link Releases} reports the guarantee as NOT certified.
 *
 * <p><b>Floating point (decision).</b> The proof is about the real-arithmetic mechanism: G exactly Gaussian and
 * {@code D^T G} computed exactly. The implementation uses Box–Muller normals from 52-bit ChaCha20 uniforms
 * (finite support, {@code |G_ij| <= 8.58}, on a data-independent but non-uniform lattice) and floating-point
 * sums whose rounding depends on D. The released matrix is therefore a floating-point approximation of a
 * sample of {@code N(0, I_r ⊗ (D^T D + lambda I))}; leakage through its low-order bits (Mironov 2012-style) and
 * the deviation of the Box–Muller normals from exact Gaussians are <b>not</b> covered by the stated
 * guarantee. Unlike additive noise, this output has a data-dependent covariance, so the grid-snapping defence of
 * {@code org.dpgauss.privacy.noise} does not apply directly; no mitigation is claimed. The guarantee's notes say
 * this; the recipe is stated as certified (the random source may still withdraw it, in {@link Releases}).
 *
 * <p>Immutable and thread-safe.
 */
public final class RandomProjectionMechanism implements RowSourceMechanism {

    /** The identifier of M_RP (NDIS ridge) in releases. */
    public static final String ID = "projection.rp";

    /** The identifier of the LSV-ridge baseline in releases. */
    public static final String LSV_ID = "projection.lsv";

    /** Text attached to every M_RP guarantee (the floating-point decision of the class comment). */
    public static final String FLOATING_POINT_NOTE = "idealised real-arithmetic Gaussian projection (spec ndis "
            + "§6.1, Thm 5.1); floating-point rounding of D^T G and the Box-Muller normals are not covered";

    /** How the ridge was calibrated. */
    public enum Calibration {
        /** {@code lambda = l'^2 / p*_NDIS(eps, delta; r)}: the exact Lemma 4 calibration (spec §6.1). */
        NDIS,
        /** {@code lambda = l'^2 / p_LSV(eps, delta; r)}: Sheffet's LSV baseline (spec §7 item 1). */
        LSV
    }

    private final int rank;
    private final ApproxDp budget;
    private final double rowBound;
    private final double leverage;
    private final double ridge;
    private final boolean clipRows;
    private final Calibration calibration;
    private final long maxRows;

    private RandomProjectionMechanism(int rank, ApproxDp budget, double rowBound, double leverage, double ridge,
            boolean clipRows, Calibration calibration) {
        this(rank, budget, rowBound, leverage, ridge, clipRows, calibration, 0);
    }

    private RandomProjectionMechanism(int rank, ApproxDp budget, double rowBound, double leverage, double ridge,
            boolean clipRows, Calibration calibration, long maxRows) {
        this.rank = rank;
        this.budget = budget;
        this.rowBound = rowBound;
        this.leverage = leverage;
        this.ridge = ridge;
        this.clipRows = clipRows;
        this.calibration = calibration;
        this.maxRows = maxRows;
    }

    /**
     * M_RP calibrated by the exact Lemma 4 curve (spec §6.1): {@code lambda = l'^2 / p*(eps, delta; r)},
     * {@code l' = l (1 + 2^-40)}.
     *
     * @param r the number of projection columns, {@code >= 1}
     * @param budget the target {@code (epsilon, delta)}: epsilon {@code >= 0}, delta in {@code (0, 1)}
     * @param rowBound the public bound l on every row's L2 norm, in {@code [1e-100, 1e100]}
     * @return the mechanism (rows above the bound scaled onto the ball; see {@link #clippingRows(boolean)})
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static RandomProjectionMechanism of(int r, ApproxDp budget, double rowBound) {
        check(r, budget, rowBound);
        double p = RandomProjectionCurve.leverageBound(budget.epsilon(), budget.delta(), r);
        double lambda = RandomProjectionCurve.ridge(budget.epsilon(), budget.delta(), r,
                BoundedRows.effectiveBound(rowBound));
        return new RandomProjectionMechanism(r, budget, rowBound, p, lambda, false, Calibration.NDIS);
    }

    /**
     * The LSV-ridge baseline (spec §7 item 1): the same mechanism with {@code lambda = l'^2 / p_LSV}. Its
     * {@code (epsilon, delta)} guarantee is stated through Lemma 4: {@code p_LSV <= p*} (checked here; it holds on
     * the whole range of spec §8.2 with a factor 6-10), so {@code delta^gRP_r(eps; p_LSV) <= delta} by Prop. 4.
     *
     * @param r the number of projection columns, {@code >= 1}
     * @param budget the target {@code (epsilon, delta)}: epsilon {@code > 0}, delta in {@code (0, 1)}
     * @param rowBound the public row-norm bound l, in {@code [1e-100, 1e100]}
     * @return the baseline mechanism
     * @throws IllegalArgumentException if an argument is out of range
     * @throws IllegalStateException if {@code p_LSV > p*} (never observed; the guarantee would not follow)
     */
    public static RandomProjectionMechanism lsvBaseline(int r, ApproxDp budget, double rowBound) {
        check(r, budget, rowBound);
        double epsilon = budget.epsilon();
        double delta = budget.delta();
        Args.positive("epsilon", epsilon, "the LSV ridge is l^2/p_LSV and p_LSV = 0 at epsilon = 0");
        double p = RandomProjectionCurve.lsvLeverage(epsilon, delta, r);
        if (RandomProjectionCurve.delta(epsilon, p, r) > delta) {
            throw new IllegalStateException("p_LSV=" + p + " exceeds p*: delta^gRP_" + r + "(" + epsilon + "; p_LSV) > "
                    + delta + ", the LSV ridge would not give the stated guarantee");
        }
        double lambda = RandomProjectionCurve.lsvRidge(epsilon, delta, r, BoundedRows.effectiveBound(rowBound));
        return new RandomProjectionMechanism(r, budget, rowBound, p, lambda, false, Calibration.LSV);
    }

    /**
     * @param clip true: the user expects rows with norm above l (the accuracy statement then speaks of the clipped
     *        rows); such rows are scaled onto the ball of radius l either way (issue 24)
     * @return a copy with the given row policy
     */
    public RandomProjectionMechanism clippingRows(boolean clip) {
        return new RandomProjectionMechanism(rank, budget, rowBound, leverage, ridge, clip, calibration, maxRows);
    }

    /**
     * A public upper bound N on the number of rows, used only for the accuracy statement (under add/remove
     * neighbours n itself is private): with it the statement is the absolute spectral error of the Gram estimate,
     * without it the error relative to {@code ||D^T D|| + lambda}. It changes nothing in the release; data with
     * more rows get a statement that does not cover them.
     *
     * @param n the public bound, {@code >= 1}
     * @return a copy stating its accuracy for at most n rows
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public RandomProjectionMechanism maxRows(long n) {
        return new RandomProjectionMechanism(rank, budget, rowBound, leverage, ridge, clipRows, calibration,
                checkMaxRows(n));
    }

    /** @return the public bound on the number of rows of the accuracy statement, or 0 if none was given */
    public long maxRows() {
        return maxRows;
    }

    /**
     * The a-priori accuracy of the Gram estimate {@link ProjectionRelease#gramEstimate()} at probability 0.95, from
     * public quantities only (d, r, lambda, l and {@link #maxRows(long)} if given); see {@code GramAccuracy}.
     *
     * @param d the dimension of the rows
     * @return the statement
     */
    public Accuracy accuracy(int d) {
        Args.dimension(d);
        return GramAccuracy.projection(d, rank, ridge, effectiveRowBound(), maxRows, clipRows, "");
    }

    /** @return whether the user declared rows above the bound (they are clipped either way) */
    public boolean clippingRows() {
        return clipRows;
    }

    /** @return r */
    public int rank() {
        return rank;
    }

    /** @return the {@code (epsilon, delta)} of the guarantee */
    public ApproxDp budget() {
        return budget;
    }

    /** @return the public row-norm bound l */
    public double rowBound() {
        return rowBound;
    }

    /** @return {@code l' = l (1 + 2^-40)}: the bound the ridge is calibrated for (l plus the public slack) */
    public double effectiveRowBound() {
        return BoundedRows.effectiveBound(rowBound);
    }

    /** @return the leverage bound {@code p*} (or {@code p_LSV} for the baseline) */
    public double leverage() {
        return leverage;
    }

    /** @return the ridge level {@code lambda = l'^2 / leverage()} */
    public double ridge() {
        return ridge;
    }

    /** @return how the ridge was calibrated */
    public Calibration calibration() {
        return calibration;
    }

    /** @return the mechanism's identifier: {@link #ID} or {@link #LSV_ID} */
    public String id() {
        return calibration == Calibration.NDIS ? ID : LSV_ID;
    }

    /**
     * The guarantee of a release, as the recipe certifies it: {@code (epsilon, delta)}-DP under add/remove
     * neighbours. (An insecure random source withdraws the certification in {@link Releases}.)
     *
     * @return the guarantee
     */
    public PrivacyGuarantee guarantee() {
        return PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, budget, true,
                notes(calibration == Calibration.LSV ? "LSV-ridge baseline, " : "", rowBound), "");
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.ADD_REMOVE;
    }

    @Override
    public Statement state(PublicContext context) {
        return Statement.builder(context, id(), guarantee())
                .description(calibration == Calibration.NDIS
                        ? "private random projection M = D^T G1 + sqrt(lambda) G2 (d x r), ridge from the exact NDIS"
                                + " curve"
                        : "private random projection M = D^T G1 + sqrt(lambda) G2 (d x r), Sheffet's LSV ridge"
                                + " (baseline)")
                .parameters(maxRowsParameter(rowParameters(context.dimension(), rank, rowBound, clipRows), maxRows)
                        .put("leverage", leverage)
                        .put("ridge", ridge)
                        .build())
                .accuracy(accuracy(context.dimension()))
                .build();
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return compute(LocalRows.of(data.matrix(), context.engine()), stated, context);
    }

    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        RowSource used = BoundedRows.clip(rows, rowBound);
        DMatrixRMaj m = project(used, rank, ridge, context.random());
        return Outcome.pass().matrix("projection", new ProjectionRelease(m, ridge, 1.0).outputArray()).build();
    }

    /**
     * Runs M_RP on the data; the computation behind {@link #compute}. Package-private: releases go through the
     * contract ({@link Releases}).
     *
     * @param data the database D, {@code n x d}, finite entries; every row norm {@code <= l} unless clipping
     * @param engine the compute engine for {@code D^T G}
     * @param random the source of the ChaCha20 key (secure by default)
     * @return the projection and its ridge
     * @throws IllegalArgumentException if a row exceeds the bound (naming it) and clipping is off, or an entry is
     *         not finite; raised before any randomness is drawn
     */
    ProjectionRelease release(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        if (data.rows() == 0) {
            return new ProjectionRelease(project((RowBlockMatrix) null, data.cols(), rank, ridge, engine, random),
                    ridge, 1.0);
        }
        RowSource rows = BoundedRows.clip(LocalRows.of(data, engine), rowBound);
        return new ProjectionRelease(project(rows, rank, ridge, random), ridge, 1.0);
    }

    /**
     * {@code D̄^T G = D^T G1 + sqrt(lambda) G2} from row passes (at least one row), with a fresh ChaCha20 key whose
     * G-row counter is the row's position in the rows' order, so a recomputed block regenerates the same G rows.
     */
    static DMatrixRMaj project(RowSource data, int r, double lambda, RandomSource random) {
        ChaCha20 g = generator(random);
        long n = data.rows();
        DMatrixRMaj m = data.gaussianProjection(r, g);
        addRidge(m, n, data.cols(), r, lambda, g);
        return m;
    }

    // ------------------------------------------------------------------ shared by the wrappers

    /** The notes of a projection guarantee: the floating-point decision and the row bound it is stated for. */
    static String notes(String prefix, double rowBound) {
        return prefix + "for rows of L2 norm <= l(1 + 2^-40) with l=" + rowBound + " (the public bound plus its"
                + " public floating-point slack; the ridge is calibrated for it); " + FLOATING_POINT_NOTE;
    }

    /** The public parameters every projection mechanism states first: shape and row bound. */
    static PublicParameters.Builder rowParameters(int d, int rank, double rowBound, boolean clipRows) {
        return PublicParameters.builder()
                .put("d", d)
                .put("rank", rank)
                .put("rowBound", rowBound)
                .put("rowBoundSlack", BoundedRows.SLACK)
                .put("effectiveRowBound", BoundedRows.effectiveBound(rowBound))
                .put("clipRows", clipRows);
    }

    /** Adds {@code maxRows} to the public parameters when a bound was given. */
    static PublicParameters.Builder maxRowsParameter(PublicParameters.Builder b, long maxRows) {
        return maxRows > 0 ? b.put("maxRows", maxRows) : b;
    }

    static long checkMaxRows(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("maxRows=" + n + " is outside [1, 2^63): a public upper bound on the"
                    + " number of rows is at least 1");
        }
        return n;
    }

    /**
     * {@code D̄^T G = D^T G1 + sqrt(lambda) G2} with a fresh ChaCha20 key; {@code data} may be null (no rows, e.g.
     * an empty Poisson sample), then only the ridge part is drawn.
     */
    static DMatrixRMaj project(RowBlockMatrix data, int d, int r, double lambda, ComputeEngine engine,
            RandomSource random) {
        ChaCha20 g = generator(random);
        int n = data == null ? 0 : data.rows();
        DMatrixRMaj m = n == 0 ? new DMatrixRMaj(d, r) : engine.gaussianProjection(data, r, g, 0L);
        addRidge(m, n, d, r, lambda, g);
        return m;
    }

    /** Adds {@code sqrt(lambda) G2}, G2's rows drawn after the n data rows of G. */
    private static void addRidge(DMatrixRMaj m, long n, int d, int r, double lambda, ChaCha20 g) {
        double s = Math.sqrt(lambda);
        if (s * s < lambda) {
            s = Math.nextUp(s); // never less ridge than calibrated
        }
        double[] row = new double[r];
        for (int i = 0; i < d; i++) {
            g.fillNormals(((long) n + i) * r, row, 0, r);
            for (int j = 0; j < r; j++) {
                m.add(i, j, s * row[j]);
            }
        }
    }

    /** A ChaCha20 generator under a fresh 256-bit key from {@code random}; the key array is zeroed. */
    static ChaCha20 generator(RandomSource random) {
        int[] key = new int[8];
        for (int i = 0; i < 8; i += 2) {
            long w = random.nextLong();
            key[i] = (int) w;
            key[i + 1] = (int) (w >>> 32);
        }
        ChaCha20 g = ChaCha20.withKey(key, 0L); // copies the key
        Arrays.fill(key, 0); // the generator holds the only copy; it is dropped with the caller's frame
        return g;
    }

    static void check(int r, ApproxDp budget, double rowBound) {
        Args.rank(r);
        Objects.requireNonNull(budget, "budget");
        Args.epsilon("epsilon", budget.epsilon());
        Args.delta("delta", budget.delta());
        BoundedRows.checkBound(rowBound);
    }
}
