package org.dpgauss.projection;

import java.util.Objects;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.calibration.RandomProjectionCurve.PoissonParameters;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
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
 * <p><b>Release contract.</b> It releases {@code projection} with public parameters {@code d}, {@code rank}, the
 * row bound and its slack (as {@link RandomProjectionMechanism}), {@code samplingRate}, {@code epsilon0},
 * {@code delta0}, {@code leverage} and {@code ridge} of the inner M_RP (and {@code maxRows} when given); it never
 * FAILs. Its accuracy statement ({@link #accuracy(int)}) counts the sketch and the sampling error. Every row beyond
 * the bound is scaled onto the ball (the domain map of {@link RandomProjectionMechanism}), sampled or not. The Gram estimate ({@link ProjectionRelease#gramEstimate()}) is divided by q (spec §6.3
 * [X]): unbiased for {@code D^T D} of the full data. Floating point: as {@link RandomProjectionMechanism}.
 * <p><b>As row passes</b> (the same code on rows in memory and on a cluster): the bound check (unless clipping),
 * then the caller's machine draws the n sampling bits in row order, the sampled rows are moved into blocks of the
 * rows' layout by a selection ({@link RowSource#select}; the whole rows when every row is kept), and one projection
 * pass runs on them.
 *
 * <p>Build it with {@link #builder()}. Immutable.
 */
public final class PoissonSubsampledProjection implements RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "projection.poisson";

    private final ApproxDp budget;
    private final double q;
    private final PoissonParameters inner;
    private final RandomProjectionMechanism mechanism;

    private PoissonSubsampledProjection(ApproxDp budget, double q, PoissonParameters inner,
            RandomProjectionMechanism mechanism) {
        this.budget = budget;
        this.q = q;
        this.inner = inner;
        this.mechanism = mechanism;
    }

    /** @return a builder: rank, budget, sampling rate and row bound are required */
    public static Builder builder() {
        return new Builder();
    }

    private static PoissonSubsampledProjection of(int r, ApproxDp budget, double q, double rowBound, boolean clip,
            long maxRows) {
        RandomProjectionMechanism.check(r, budget, rowBound);
        PoissonParameters p = RandomProjectionCurve.poissonSubsampled(budget.epsilon(), budget.delta(), q);
        RandomProjectionMechanism inner = RandomProjectionMechanism.of(r, ApproxDp.of(p.epsilon0(), p.delta0()),
                rowBound).clippingRows(clip);
        return new PoissonSubsampledProjection(budget, q, p, maxRows > 0 ? inner.maxRows(maxRows) : inner);
    }

    /**
     * The a-priori accuracy of the Gram estimate (divided by q) at probability 0.95, from public quantities only
     * (d, r, the inner ridge, q, l and the public bound on the number of rows if given); see {@code GramAccuracy}.
     *
     * @param d the dimension of the rows
     * @return the statement
     */
    public Accuracy accuracy(int d) {
        Args.dimension(d);
        return GramAccuracy.poisson(d, mechanism.rank(), mechanism.ridge(), q, mechanism.effectiveRowBound(),
                mechanism.maxRows(), mechanism.clippingRows());
    }

    /** @return the public bound on the number of rows of the accuracy statement, or 0 if none was given */
    public long maxRows() {
        return mechanism.maxRows();
    }

    /**
     * @param clip whether the user expects rows above the bound (true; the accuracy statement then speaks of the
     *        clipped rows); rows above it are scaled onto the ball either way (issue 24)
     * @return a copy with that row policy
     */
    public PoissonSubsampledProjection clippingRows(boolean clip) {
        return new PoissonSubsampledProjection(budget, q, inner, mechanism.clippingRows(clip));
    }

    /** @return the sampling rate q */
    public double rate() {
        return q;
    }

    /** @return {@code (eps0, delta0)} of the inner M_RP */
    public PoissonParameters innerParameters() {
        return inner;
    }

    /** @return the inner M_RP (its ridge is {@code l'^2 / p*(eps0, delta0; r)}) */
    public RandomProjectionMechanism inner() {
        return mechanism;
    }

    /**
     * @return {@code (epsilon, delta)}-DP under add/remove neighbours, as the recipe certifies it
     */
    public PrivacyGuarantee guarantee() {
        return PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, budget, true,
                RandomProjectionMechanism.notes("Poisson subsampling q=" + q + ", ", mechanism.rowBound()),
                "amplification by Poisson subsampling (Balle-Barthe-Gaboardi 2018 Thm 8) of M_RP at (eps0, delta0)"
                        + " = (" + inner.epsilon0() + ", " + inner.delta0() + ")");
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.ADD_REMOVE;
    }

    @Override
    public Statement state(PublicContext context) {
        return Statement.builder(context, ID, guarantee())
                .description("private random projection of a Poisson subsample (each row kept with probability q),"
                        + " M = D_S^T G1 + sqrt(lambda) G2 (d x r)")
                .parameters(RandomProjectionMechanism.maxRowsParameter(RandomProjectionMechanism.rowParameters(
                                context.dimension(), mechanism.rank(), mechanism.rowBound(), mechanism.clippingRows()),
                                mechanism.maxRows())
                        .put("samplingRate", q)
                        .put("epsilon0", inner.epsilon0())
                        .put("delta0", inner.delta0())
                        .put("leverage", mechanism.leverage())
                        .put("ridge", mechanism.ridge())
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
        return Outcome.pass().matrix("projection", release(rows, context.engine(), context.random())
                .outputArray()).build();
    }

    /**
     * Samples and projects; the computation behind {@link #compute}. Package-private: releases go through the
     * contract.
     *
     * @param data the database, every row norm {@code <= l} unless clipping
     * @param engine the compute engine
     * @param random the source of the sampling bits and of the ChaCha20 key
     * @return the projection; its Gram estimate is scaled by {@code 1/q}
     */
    ProjectionRelease release(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        if (data.rows() > 0) {
            return release(LocalRows.of(data, engine), engine, random);
        }
        DMatrixRMaj m = RandomProjectionMechanism.project((RowBlockMatrix) null, data.cols(), mechanism.rank(),
                mechanism.ridge(), engine, random);
        return new ProjectionRelease(m, mechanism.ridge(), q);
    }

    /** {@link #release(RowBlockMatrix, ComputeEngine, RandomSource)} as row passes (at least one row). */
    private ProjectionRelease release(RowSource data, ComputeEngine engine, RandomSource random) {
        // clip every row before sampling (the domain map; the same rows whatever is sampled)
        RowSource rows = BoundedRows.clip(data, mechanism.rowBound());
        int[] keep = sample(Math.toIntExact(rows.rows()), q, random);
        int d = rows.cols();
        DMatrixRMaj m;
        if (keep.length == 0) {
            m = RandomProjectionMechanism.project((RowBlockMatrix) null, d, mechanism.rank(), mechanism.ridge(),
                    engine, random);
        } else if (keep.length == rows.rows()) {
            m = RandomProjectionMechanism.project(rows, mechanism.rank(), mechanism.ridge(), random);
        } else {
            RowSource sample = rows.select(keep, rows.layout());
            try {
                m = RandomProjectionMechanism.project(sample, mechanism.rank(), mechanism.ridge(), random);
            } finally {
                sample.discard();
            }
        }
        return new ProjectionRelease(m, mechanism.ridge(), q);
    }

    /**
     * Independent Bernoulli(floor(q 2^53)/2^53) selection of the positions {@code 0..n-1}, one draw per row in row
     * order.
     *
     * @return the kept positions, increasing (possibly none)
     */
    static int[] sample(int n, double q, RandomSource random) {
        long threshold = (long) Math.floor(q * 0x1p53); // exact: q in (0, 1]
        int[] keep = new int[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if ((random.nextLong() >>> 11) < threshold) {
                keep[k++] = i;
            }
        }
        return java.util.Arrays.copyOf(keep, k);
    }

    /** Independent Bernoulli(floor(q 2^53)/2^53) selection of rows; null when none is kept. */
    static RowBlockMatrix sample(RowBlockMatrix data, double q, RandomSource random) {
        if (data == null) {
            return null;
        }
        int[] keep = sample(data.rows(), q, random);
        if (keep.length == 0) {
            return null;
        }
        if (keep.length == data.rows()) {
            return data;
        }
        return data.selectRows(keep);
    }

    /**
     * Builds a {@link PoissonSubsampledProjection} from named parameters (nothing can be swapped silently): rank,
     * budget, sampling rate and row bound are required.
     */
    public static final class Builder extends WrapperBuilder<Builder> {
        private Double rate;

        private Builder() {
        }

        /**
         * @param q the sampling rate, in {@code (delta, 1]} ({@code q <= delta} gives {@code delta0 >= 1})
         * @return this builder
         */
        public Builder samplingRate(double q) {
            this.rate = q;
            return this;
        }

        /**
         * @return the wrapper
         * @throws IllegalStateException if a required parameter is missing
         * @throws IllegalArgumentException if a parameter is out of range
         */
        public PoissonSubsampledProjection build() {
            requireAll("samplingRate(q)", rate != null);
            return of(rank, budget, rate, rowBound, clipRows, maxRows);
        }
    }
}
