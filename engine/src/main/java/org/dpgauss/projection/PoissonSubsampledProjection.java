package org.dpgauss.projection;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.calibration.RandomProjectionCurve.PoissonParameters;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;

/**
 * The Poisson-subsampled wrapper M_RP^Pois (spec ndis §6.3, Figure 3, Theorem 5.3): keep each row independently
 * with probability q, then run M_RP on the sample at {@code eps0 = ln(1 + (e^eps - 1)/q)},
 * {@code delta0 = delta/q}; amplification by Poisson subsampling (Balle, Barthe &amp; Gaboardi 2018, Thm 8) gives
 * {@code (epsilon, delta)}-DP under <b>add/remove</b> neighbours. Requires {@code delta < q <= 1}.
 *
 * <p><b>Sampling.</b> True Poisson sampling (the sample size is random and never released): row i is kept iff
 * {@code k_i < floor(q 2^53)} with {@code k_i} 53 uniform bits from the {@link RandomSource} (secure by default),
 * so the keep probability is {@code floor(q 2^53)/2^53 <= q} exactly; amplification is monotone in the rate, so
 * the guarantee computed at q holds.
 *
 * <p>The Gram estimate of the release is divided by q (spec §6.3 [X]): unbiased for {@code D^T D} of the full data.
 * Floating point: as {@link RandomProjectionMechanism}. Immutable.
 */
public final class PoissonSubsampledProjection {

    private final double epsilon;
    private final double delta;
    private final double q;
    private final PoissonParameters inner;
    private final RandomProjectionMechanism mechanism;

    private PoissonSubsampledProjection(double epsilon, double delta, double q, PoissonParameters inner,
            RandomProjectionMechanism mechanism) {
        this.epsilon = epsilon;
        this.delta = delta;
        this.q = q;
        this.inner = inner;
        this.mechanism = mechanism;
    }

    /**
     * @param r the number of projection columns, {@code >= 1}
     * @param epsilon the target privacy loss, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @param q the sampling rate, in {@code (delta, 1]} ({@code q <= delta} gives {@code delta0 >= 1})
     * @param rowBound the public row-norm bound l, finite and {@code > 0}
     * @return the wrapper (rows above l rejected; see {@link #clippingRows(boolean)})
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static PoissonSubsampledProjection of(int r, double epsilon, double delta, double q, double rowBound) {
        RandomProjectionMechanism.check(r, epsilon, delta, rowBound);
        PoissonParameters p = RandomProjectionCurve.poissonSubsampled(epsilon, delta, q);
        return new PoissonSubsampledProjection(epsilon, delta, q, p,
                RandomProjectionMechanism.of(r, p.epsilon0(), p.delta0(), rowBound));
    }

    /**
     * @param clip whether rows above the bound are clipped (true) or rejected (false, the default)
     * @return a copy with that row policy
     */
    public PoissonSubsampledProjection clippingRows(boolean clip) {
        return new PoissonSubsampledProjection(epsilon, delta, q, inner, mechanism.clippingRows(clip));
    }

    /** @return the sampling rate q */
    public double rate() {
        return q;
    }

    /** @return {@code (eps0, delta0)} of the inner M_RP */
    public PoissonParameters innerParameters() {
        return inner;
    }

    /** @return the inner M_RP (its ridge is {@code l^2 / p*(eps0, delta0; r)}) */
    public RandomProjectionMechanism inner() {
        return mechanism;
    }

    /**
     * @param random the randomness of the release
     * @return {@code (epsilon, delta)}-DP under add/remove neighbours
     */
    public PrivacyGuarantee guarantee(RandomSource random) {
        return PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, ApproxDp.of(epsilon, delta),
                !random.isInsecure(), RandomProjectionMechanism.notes("Poisson subsampling q=" + q
                        + " (Balle-Barthe-Gaboardi 2018 Thm 8), ", random));
    }

    /**
     * Samples and projects.
     *
     * @param data the database, every row norm {@code <= l} unless clipping
     * @param engine the compute engine
     * @param random the source of the sampling bits and of the ChaCha20 key
     * @return the release; its Gram estimate is scaled by {@code 1/q}
     */
    public ProjectionRelease release(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        // validate every row before sampling, so an out-of-bound row is reported whether or not it is sampled
        BoundedRows rows = BoundedRows.check(data, mechanism.rowBound(), mechanism.clippingRows());
        RowBlockMatrix sample = sample(rows.data(), q, random);
        DMatrixRMaj m = RandomProjectionMechanism.project(sample, data.cols(), mechanism.rank(), mechanism.ridge(),
                engine, random);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("mechanism", "M_RP^Pois");
        details.put("q", q);
        details.put("epsilon0", inner.epsilon0());
        details.put("delta0", inner.delta0());
        details.put("leverage", mechanism.leverage());
        details.put("ridge", mechanism.ridge());
        details.put("clipped_rows", rows.clipped());
        return new ProjectionRelease(m, mechanism.ridge(), q, sample == null ? 0 : sample.rows(), rows.clipped(),
                guarantee(random), details);
    }

    /** Independent Bernoulli(floor(q 2^53)/2^53) selection of rows; null when none is kept. */
    static RowBlockMatrix sample(RowBlockMatrix data, double q, RandomSource random) {
        if (data == null) {
            return null;
        }
        long threshold = (long) Math.floor(q * 0x1p53); // exact: q in (0, 1]
        int n = data.rows();
        int[] keep = new int[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if ((random.nextLong() >>> 11) < threshold) {
                keep[k++] = i;
            }
        }
        if (k == 0) {
            return null;
        }
        if (k == n) {
            return data;
        }
        return data.selectRows(java.util.Arrays.copyOf(keep, k));
    }
}
