package org.dpgauss.projection;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.random.ChaCha20;
import org.ejml.data.DMatrixRMaj;

/**
 * The random projection mechanism M_RP (spec ndis §6.1, Figure 1; Theorem 5.1): release
 * {@code M = D̄^T G = D^T G1 + sqrt(lambda) G2} ({@code d x r}) with {@code D̄ = [D ; sqrt(lambda) I_d]} and
 * {@code G = [G1 ; G2]} an {@code (n+d) x r} matrix of independent standard normals.
 *
 * <p><b>Guarantee.</b> {@code (epsilon, delta)}-DP under <b>add/remove-one-row</b> neighbours, provided every row
 * of every database has L2 norm at most the public bound {@code l}. The ridge {@code lambda = l^2 / p*} with
 * {@code p* = p*(eps, delta; r)} of {@link RandomProjectionCurve#leverageBound} depends only on
 * {@code (eps, delta, r, l)}; every row v of the larger database has leverage
 * {@code v^T (D^T D + lambda I)^{-1} v <= ||v||^2/lambda <= p*} in D̄, so Lemma 4 and Prop. 4 bound the removal
 * direction by {@code delta^gRP_r(eps; p*) <= delta} and Lemma 3 the addition direction (spec §6.1).
 *
 * <p><b>Rows above the bound</b> are rejected with an error naming the first such row (0-based), since the
 * guarantee needs {@code ||x|| <= l}. With {@link #clippingRows()} they are instead scaled onto the ball of
 * radius l (a per-row map, so the guarantee is unchanged for the unclipped data); the release then reports how
 * many rows were clipped. A row of squared norm exactly {@code l^2} in floating point is accepted.
 *
 * <p><b>Randomness.</b> G is generated on the fly ({@link ComputeEngine#gaussianProjection}: entry
 * {@code (i, j)} of G is normal number {@code i*r + j} of a {@link ChaCha20} stream; rows {@code n..n+d-1} are
 * G2) under a fresh 256-bit key drawn from the {@link RandomSource} ({@link RandomSource#secure()} =
 * SecureRandom by default). The key lives in a local array that is zeroed after the generator is built, and is
 * never printed, logged or returned. With {@link RandomSource#insecureSeeded} (the CLI's {@code --insecure-seed})
 * the projection is reproducible and the guarantee is reported as NOT certified.
 *
 * <p><b>Floating point (decision).</b> The proof is about the real-arithmetic mechanism: G exactly Gaussian and
 * {@code D^T G} computed exactly. The implementation uses Box–Muller normals from 52-bit ChaCha20 uniforms
 * (finite support, {@code |G_ij| <= 8.58}, on a data-independent but non-uniform lattice) and floating-point
 * sums whose rounding depends on D. The released matrix is therefore a floating-point approximation of a
 * sample of {@code N(0, I_r ⊗ (D^T D + lambda I))}; leakage through its low-order bits (Mironov 2012-style) and
 * the deviation of the Box–Muller normals from exact Gaussians are <b>not</b> covered by the stated
 * guarantee. Unlike additive noise, this output has a data-dependent covariance, so the grid-snapping defence of
 * {@code org.dpgauss.privacy.noise} does not apply directly; no mitigation is claimed. The guarantee's notes say
 * this; {@code certified} is true when the randomness is secure and every row met the bound (or was clipped).
 *
 * <p>Immutable and thread-safe; {@link #release} may be called concurrently with separate random sources.
 */
public final class RandomProjectionMechanism {

    /** Text attached to every M_RP guarantee (the floating-point decision of the class comment). */
    public static final String FLOATING_POINT_NOTE = "idealised real-arithmetic Gaussian projection (spec ndis "
            + "§6.1, Thm 5.1); floating-point rounding of D^T G and the Box-Muller normals are not covered";

    /** How the ridge was calibrated. */
    public enum Calibration {
        /** {@code lambda = l^2 / p*_NDIS(eps, delta; r)}: the exact Lemma 4 calibration (spec §6.1). */
        NDIS,
        /** {@code lambda = l^2 / p_LSV(eps, delta; r)}: Sheffet's LSV baseline (spec §7 item 1). */
        LSV
    }

    private final int rank;
    private final double epsilon;
    private final double delta;
    private final double rowBound;
    private final double leverage;
    private final double ridge;
    private final boolean clipRows;
    private final Calibration calibration;

    private RandomProjectionMechanism(int rank, double epsilon, double delta, double rowBound, double leverage,
            double ridge, boolean clipRows, Calibration calibration) {
        this.rank = rank;
        this.epsilon = epsilon;
        this.delta = delta;
        this.rowBound = rowBound;
        this.leverage = leverage;
        this.ridge = ridge;
        this.clipRows = clipRows;
        this.calibration = calibration;
    }

    /**
     * M_RP calibrated by the exact Lemma 4 curve (spec §6.1): {@code lambda = l^2 / p*(eps, delta; r)}.
     *
     * @param r the number of projection columns, {@code >= 1}
     * @param epsilon the privacy loss, finite and {@code >= 0}
     * @param delta in {@code (0, 1)}
     * @param rowBound the public bound l on every row's L2 norm, finite and {@code > 0}
     * @return the mechanism (rows above the bound rejected; see {@link #clippingRows(boolean)})
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static RandomProjectionMechanism of(int r, double epsilon, double delta, double rowBound) {
        check(r, epsilon, delta, rowBound);
        double p = RandomProjectionCurve.leverageBound(epsilon, delta, r);
        double lambda = RandomProjectionCurve.ridge(epsilon, delta, r, rowBound);
        return new RandomProjectionMechanism(r, epsilon, delta, rowBound, p, lambda, false, Calibration.NDIS);
    }

    /**
     * The LSV-ridge baseline (spec §7 item 1): the same mechanism with {@code lambda = w^2 = l^2 / p_LSV}. Its
     * {@code (epsilon, delta)} guarantee is stated through Lemma 4: {@code p_LSV <= p*} (checked here; it holds on
     * the whole range of spec §8.2 with a factor 6-10), so {@code delta^gRP_r(eps; p_LSV) <= delta} by Prop. 4.
     *
     * @param r the number of projection columns, {@code >= 1}
     * @param epsilon the privacy loss, finite and {@code > 0}
     * @param delta in {@code (0, 1)}
     * @param rowBound the public row-norm bound l, finite and {@code > 0}
     * @return the baseline mechanism
     * @throws IllegalArgumentException if an argument is out of range
     * @throws IllegalStateException if {@code p_LSV > p*} (never observed; the guarantee would not follow)
     */
    public static RandomProjectionMechanism lsvBaseline(int r, double epsilon, double delta, double rowBound) {
        check(r, epsilon, delta, rowBound);
        Args.positive("epsilon", epsilon, "the LSV ridge is l^2/p_LSV and p_LSV = 0 at epsilon = 0");
        double p = RandomProjectionCurve.lsvLeverage(epsilon, delta, r);
        if (RandomProjectionCurve.delta(epsilon, p, r) > delta) {
            throw new IllegalStateException("p_LSV=" + p + " exceeds p*: delta^gRP_" + r + "(" + epsilon + "; p_LSV) > "
                    + delta + ", the LSV ridge would not give the stated guarantee");
        }
        double lambda = RandomProjectionCurve.lsvRidge(epsilon, delta, r, rowBound);
        return new RandomProjectionMechanism(r, epsilon, delta, rowBound, p, lambda, false, Calibration.LSV);
    }

    /**
     * @param clip true: rows with norm above l are scaled onto the ball of radius l (and the release says how
     *        many); false (default): such rows are an error
     * @return a copy with the given row policy
     */
    public RandomProjectionMechanism clippingRows(boolean clip) {
        return new RandomProjectionMechanism(rank, epsilon, delta, rowBound, leverage, ridge, clip, calibration);
    }

    /** @return whether rows above the bound are clipped rather than rejected */
    public boolean clippingRows() {
        return clipRows;
    }

    /** @return r */
    public int rank() {
        return rank;
    }

    /** @return epsilon of the guarantee */
    public double epsilon() {
        return epsilon;
    }

    /** @return delta of the guarantee */
    public double delta() {
        return delta;
    }

    /** @return the public row-norm bound l */
    public double rowBound() {
        return rowBound;
    }

    /** @return the leverage bound {@code p*} (or {@code p_LSV} for the baseline) */
    public double leverage() {
        return leverage;
    }

    /** @return the ridge level {@code lambda = l^2 / leverage()} */
    public double ridge() {
        return ridge;
    }

    /** @return how the ridge was calibrated */
    public Calibration calibration() {
        return calibration;
    }

    /**
     * The guarantee of a release: {@code (epsilon, delta)}-DP under add/remove neighbours.
     *
     * @param random the source the release draws from (an insecure one makes the claim uncertified)
     * @return the guarantee
     */
    public PrivacyGuarantee guarantee(RandomSource random) {
        return PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, ApproxDp.of(epsilon, delta),
                !random.isInsecure(), notes(calibration == Calibration.LSV ? "LSV-ridge baseline, " : "", random));
    }

    /**
     * Runs M_RP on the data.
     *
     * @param data the database D, {@code n x d}, finite entries; every row norm {@code <= l} unless clipping
     * @param engine the compute engine for {@code D^T G}
     * @param random the source of the ChaCha20 key (secure by default)
     * @return the release
     * @throws IllegalArgumentException if a row exceeds the bound (naming it) and clipping is off, or an entry is
     *         not finite
     */
    public ProjectionRelease release(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        BoundedRows rows = BoundedRows.check(data, rowBound, clipRows);
        DMatrixRMaj m = project(rows.data(), data.cols(), rank, ridge, engine, random);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("mechanism", calibration == Calibration.NDIS ? "M_RP" : "M_RP (LSV ridge)");
        details.put("leverage", leverage);
        details.put("ridge", ridge);
        details.put("clipped_rows", rows.clipped());
        return new ProjectionRelease(m, ridge, 1.0, rows.data() == null ? 0 : rows.data().rows(), rows.clipped(),
                guarantee(random), details);
    }

    // ------------------------------------------------------------------ shared by the wrappers

    static String notes(String prefix, RandomSource random) {
        return prefix + FLOATING_POINT_NOTE + (random.isInsecure() ? "; INSECURE seeded randomness: not private" : "");
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
        return m;
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

    static void check(int r, double epsilon, double delta, double rowBound) {
        Args.rank(r);
        Args.epsilon("epsilon", epsilon);
        Args.delta("delta", delta);
        Args.positive("rowBound", rowBound, "the public row-norm bound l must be a positive norm (spec ndis §6.1)");
    }
}
