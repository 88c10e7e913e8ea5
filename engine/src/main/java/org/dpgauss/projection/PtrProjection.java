package org.dpgauss.projection;

import java.util.List;
import java.util.Objects;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
import org.dpgauss.special.Normal;
import org.ejml.data.DMatrixRMaj;

/**
 * The propose-test-release wrapper M_RP^PTR (spec ndis §6.4, Figure 4, Theorem 5.4): a private lower bound
 * {@code lambda_lb} on {@code lambda_min(D^T D)} lets the ridge shrink to {@code max(l'^2/p* - lambda_lb, 0)}, with
 * {@code p* = p*(eps_R, delta_R; r)} and {@code l' = l (1 + 2^-40)} the row bound plus its public slack (see
 * {@link RandomProjectionMechanism}). {@code (epsilon, delta)}-DP under <b>add/remove</b> neighbours with
 * {@code epsilon = eps_T + eps_R} and {@code delta = delta_T + delta_R + delta_ptr}: the guarantee is the
 * accountant's basic composition ({@link PrivacyAccountant#composeSteps}) of three sub-steps, the test
 * {@code (eps_T, delta_T)}, the projection {@code (eps_R, delta_R)} and the event that the lower bound exceeds
 * {@code lambda_min} ({@code (0, delta_ptr)}, Thm 5.4). There is no FAIL outcome: a poor lower bound only means
 * more ridge (at worst the plain {@code l'^2/p*}).
 *
 * <p><b>The test, with exact discrete noise.</b> {@code lambda_min} has add/remove sensitivity {@code l'^2} (Weyl).
 * It is rounded to the grid {@code g = SecureGaussianSampler.grid(s_T)} and released as
 * {@code g (round(lambda_min/g) + Z)}, {@code Z ~ N_Z(0, s^2)} with the integer {@code s = ceil(s_T/g)} from
 * {@link SecureGaussianSampler#sampleIndex} (exact integer arithmetic). The integer query has sensitivity
 * {@code C = floor(l'^2/g) + 1} (rounding). {@code eps_T} is the smallest value whose <em>discrete</em> hockey-stick
 * divergence is provably {@code <= delta_T}: with {@code w(y) = exp(-y^2/(2 s^2))},
 * {@code y0 = C/2 - eps s^2/C <= 0} and comparing the sums with integrals (w is increasing left of 0),
 * <pre>
 *   delta_disc(eps) &lt;= ( sqrt(2 pi) s * delta_GM(eps; C/s) + 2 w(y0) ) / ( sqrt(2 pi) s - 1 )
 * </pre>
 * ({@code delta_GM} is Prop. 1; the bound increases with the shift, so C covers every shift of CKS20 Thm 7).
 * The margin is {@code alpha = g (k + 1)}, with k the smallest integer whose discrete tail bound
 * {@code (w(k+1) + sqrt(2 pi) s Phi̅((k+1)/s)) / (sqrt(2 pi) s - 1) <= delta_ptr}; the extra g covers the rounding,
 * so on the event {@code Z <= k} (probability {@code >= 1 - delta_ptr}) {@code lambda_lb <= lambda_min(D^T D)}.
 * These bounds make eps_T and alpha marginally larger than the continuous values of spec §6.4 (relative
 * {@code ~1e-6}).
 *
 * <p><b>Release contract.</b> It releases {@code projection}, {@code lambdaLowerBound} (the noised lower bound,
 * covered by the test's {@code (eps_T, delta_T)}) and {@code ridge} (a function of it), with public parameters
 * {@code d}, {@code rank}, the row bound and its slack, {@code epsilonT}, {@code epsilonR}, {@code deltaR},
 * {@code deltaT}, {@code deltaPtr}, {@code testNoise}, {@code alpha}, {@code leverage}, {@code targetRidge} (and
 * {@code maxRows} when given); its accuracy ({@link #accuracy(int)}) is stated at the target ridge, the largest it
 * can add.
 * It never FAILs, so it has no fail meaning. Rows beyond the bound are scaled onto the ball as in
 * {@link RandomProjectionMechanism}, before the test. Build it with {@link #builder()}.
 *
 * <p><b>As row passes</b> (the same code on rows in memory and on a cluster): the bound check (unless clipping),
 * one Gram for {@code lambda_min} (its eigenvalues on the caller's machine) and one projection pass.
 *
 * <p><b>Not covered</b>: the floating-point computation of {@code lambda_min} (Gram plus symmetric eigensolver;
 * the sensitivity {@code l'^2} is that of the exact value) and the projection itself (see
 * {@link RandomProjectionMechanism}). Immutable.
 */
public final class PtrProjection implements RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "projection.ptr";

    private static final double SQRT_2PI = Math.sqrt(2 * Math.PI);

    private final int rank;
    private final double epsilon;
    private final double rowBound;
    private final double deltaR;
    private final double deltaT;
    private final double deltaPtr;
    private final double sT;
    private final double grid;
    private final long scale;
    private final long sensitivity;
    private final double epsilonT;
    private final double epsilonR;
    private final double leverage;
    private final double targetRidge;
    private final long marginIndex;
    private final boolean clipRows;
    private final long maxRows;

    private PtrProjection(int rank, double epsilon, double rowBound, double deltaR, double deltaT, double deltaPtr,
            double sT, boolean clipRows, long maxRows) {
        this.rank = rank;
        this.epsilon = epsilon;
        this.rowBound = rowBound;
        this.deltaR = deltaR;
        this.deltaT = deltaT;
        this.deltaPtr = deltaPtr;
        this.sT = sT;
        this.clipRows = clipRows;
        this.maxRows = maxRows;
        this.grid = SecureGaussianSampler.grid(sT);
        this.scale = NoiseGrid.integerScale("sT", sT, grid);
        double bound = BoundedRows.effectiveBound(rowBound);
        double c = Math.floor(bound * bound / grid) + 1;
        if (!(c <= 0x1p52)) {
            throw new IllegalArgumentException("rowBound=" + rowBound + " is " + c + " grid spacings of the PTR noise"
                    + " (sT=" + sT + "): l^2/sT must be below 2^31 for exact discrete noise; sT >= "
                    + (float) (bound * bound * 0x1p-30) + " suffices");
        }
        this.sensitivity = (long) c;
        this.epsilonT = testEpsilon(deltaT, sensitivity, scale);
        if (epsilonT > epsilon) {
            double enough = minimumTestNoise(epsilon, rowBound, deltaT, sT);
            throw new IllegalArgumentException("sT=" + sT + " gives eps_T=" + epsilonT + " > epsilon=" + epsilon
                    + ": the test alone exceeds the budget (spec ndis §6.4, §11.4); "
                    + (Double.isFinite(enough) ? "sT >= " + (float) enough + " would suffice at this epsilon"
                            + " (more leaves more epsilon to the projection), " : "")
                    + "or epsilon > " + (float) epsilonT + " at this sT, or a larger share of delta for the test");
        }
        double epsR = Math.max(epsilon - epsilonT, 0);
        while (epsR > 0 && epsilonT + epsR > epsilon) {
            epsR = Math.nextDown(epsR); // the composition eps_T + eps_R must not exceed epsilon in floating point
        }
        this.epsilonR = epsR;
        this.leverage = RandomProjectionCurve.leverageBound(epsilonR, deltaR, rank);
        this.targetRidge = RandomProjectionCurve.ridge(epsilonR, deltaR, rank, bound);
        this.marginIndex = marginIndex(deltaPtr, scale);
    }

    /** @return a builder: rank, budget, test noise and row bound are required; the delta split defaults to thirds */
    public static Builder builder() {
        return new Builder();
    }

    static PtrProjection of(int r, double epsilon, double rowBound, double deltaR, double deltaT,
            double deltaPtr, double sT, boolean clip) {
        return of(r, epsilon, rowBound, deltaR, deltaT, deltaPtr, sT, clip, 0);
    }

    static PtrProjection of(int r, double epsilon, double rowBound, double deltaR, double deltaT,
            double deltaPtr, double sT, boolean clip, long maxRows) {
        RandomProjectionMechanism.check(r, ApproxDp.of(epsilon, deltaR), rowBound);
        Args.delta("deltaT", deltaT);
        Args.delta("deltaPtr", deltaPtr);
        Args.delta("deltaR + deltaT + deltaPtr", deltaR + deltaT + deltaPtr);
        Args.positive("sT", sT, "the PTR test noise standard deviation must be positive (spec ndis §6.4)");
        return new PtrProjection(r, epsilon, rowBound, deltaR, deltaT, deltaPtr, sT, clip, maxRows);
    }

    /**
     * The smallest test noise (to a relative 1e-6, rounded up) whose test epsilon is at most {@code epsilon}, for
     * error messages; {@code NaN} if none up to {@code 2^40 l^2} is.
     */
    static double minimumTestNoise(double epsilon, double rowBound, double deltaT, double from) {
        double hi = Math.max(from, 1e-300);
        int guard = 0;
        while (testEpsilonAt(hi, rowBound, deltaT) > epsilon) {
            hi *= 2;
            if (++guard > 200 || hi > 0x1p40 * rowBound * rowBound) {
                return Double.NaN;
            }
        }
        double lo = hi / 2;
        for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (testEpsilonAt(mid, rowBound, deltaT) > epsilon) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    private static double testEpsilonAt(double sT, double rowBound, double deltaT) {
        try {
            double g = SecureGaussianSampler.grid(sT);
            long s = NoiseGrid.integerScale("sT", sT, g);
            double bound = BoundedRows.effectiveBound(rowBound);
            double c = Math.floor(bound * bound / g) + 1;
            if (!(c <= 0x1p52)) {
                return Double.POSITIVE_INFINITY;
            }
            return testEpsilon(deltaT, (long) c, s);
        } catch (IllegalArgumentException e) {
            return Double.POSITIVE_INFINITY;
        }
    }

    /**
     * @param clip whether the user expects rows above the bound (true; the accuracy statement then speaks of the
     *        clipped rows); rows above it are scaled onto the ball either way (issue 24)
     * @return a copy with that row policy
     */
    public PtrProjection clippingRows(boolean clip) {
        return new PtrProjection(rank, epsilon, rowBound, deltaR, deltaT, deltaPtr, sT, clip, maxRows);
    }

    /** @return the public bound on the number of rows of the accuracy statement, or 0 if none was given */
    public long maxRows() {
        return maxRows;
    }

    /** @return the standard deviation s_T of the test noise */
    public double testNoise() {
        return sT;
    }

    /**
     * The a-priori accuracy of the Gram estimate at probability 0.95, from public quantities only, stated at the
     * largest ridge PTR can add (the target ridge {@code l'^2/p*(eps_R, delta_R)}, reached when the private lower
     * bound is 0): a well-conditioned {@code D^T D} lowers the ridge and the error. See {@code GramAccuracy}.
     *
     * @param d the dimension of the rows
     * @return the statement
     */
    public Accuracy accuracy(int d) {
        Args.dimension(d);
        return GramAccuracy.projection(d, rank, targetRidge, BoundedRows.effectiveBound(rowBound), maxRows, clipRows,
                "; it is stated at PTR's largest ridge (the target ridge, reached when the private lower bound on"
                        + " lambda_min is 0): a large lambda_min(D^T D) lowers the ridge and the error");
    }

    /** @return eps_T of the test (discrete-noise bound) */
    public double epsilonT() {
        return epsilonT;
    }

    /** @return eps_R = epsilon - eps_T left for the projection (rounded down so that eps_T + eps_R &lt;= epsilon) */
    public double epsilonR() {
        return epsilonR;
    }

    /** @return p*(eps_R, delta_R; r) */
    public double leverage() {
        return leverage;
    }

    /** @return {@code l'^2 / p*}: the lower bound on lambda_min of the ridged Gram matrix the release ensures */
    public double targetRidge() {
        return targetRidge;
    }

    /** @return the margin alpha subtracted from the noisy lambda_min */
    public double alpha() {
        return grid * (marginIndex + 1);
    }

    /** @return the total delta {@code delta_T + delta_R + delta_ptr} */
    public double delta() {
        return deltaT + deltaR + deltaPtr;
    }

    /** @return the public row-norm bound l */
    public double rowBound() {
        return rowBound;
    }

    /**
     * Prop. 5: PTR adds less ridge than M_RP at the full {@code (epsilon, delta)} when {@code lambda_min(D^T D)}
     * exceeds this and the noise draw is {@code >= 0} (spec §11.2).
     *
     * @return {@code alpha + l'^2/p*(eps_R, delta_R) - l'^2/p*(eps, delta)}
     */
    public double propositionFiveThreshold() {
        return alpha() + targetRidge - RandomProjectionCurve.ridge(epsilon, delta(), rank,
                BoundedRows.effectiveBound(rowBound));
    }

    /**
     * The guarantee, as the recipe certifies it: the accountant's composition of the test
     * {@code (eps_T, delta_T)}, the projection {@code (eps_R, delta_R)} and the failure of the lower bound
     * {@code (0, delta_ptr)}, i.e. {@code (eps_T + eps_R, delta_T + delta_R + delta_ptr)}-DP under add/remove
     * neighbours.
     *
     * @return the guarantee
     */
    public PrivacyGuarantee guarantee() {
        NeighbouringRelation rel = NeighbouringRelation.ADD_REMOVE;
        List<Release> steps = List.of(
                Release.approxDp(ID + ".test", rel, ApproxDp.of(epsilonT, deltaT)),
                Release.approxDp(ID + ".projection", rel, ApproxDp.of(epsilonR, deltaR)),
                Release.approxDp(ID + ".lowerBoundFailure", rel, ApproxDp.of(0, deltaPtr)));
        return PrivacyAccountant.composeSteps(rel, steps, delta(), true, RandomProjectionMechanism.notes(
                "PTR ridge (test eps_T=" + epsilonT + " with discrete Gaussian noise, projection eps_R=" + epsilonR
                        + ", lower bound failing with probability <= delta_ptr=" + deltaPtr + " charged as a"
                        + " (0, delta_ptr) step, Thm 5.4); lambda_min computed in floating point; ", rowBound));
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.ADD_REMOVE;
    }

    @Override
    public Statement state(PublicContext context) {
        return Statement.builder(context, ID, guarantee())
                .description("private random projection M = D^T G1 + sqrt(lambda) G2 (d x r) whose ridge is lowered"
                        + " by a private lower bound on lambda_min(D^T D) (propose-test-release)")
                .parameters(RandomProjectionMechanism.maxRowsParameter(RandomProjectionMechanism.rowParameters(
                                context.dimension(), rank, rowBound, clipRows), maxRows)
                        .put("epsilonT", epsilonT)
                        .put("epsilonR", epsilonR)
                        .put("deltaT", deltaT)
                        .put("deltaR", deltaR)
                        .put("deltaPtr", deltaPtr)
                        .put("testNoise", sT)
                        .put("alpha", alpha())
                        .put("leverage", leverage)
                        .put("targetRidge", targetRidge)
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
        ProjectionRelease rel = release(rows, context.engine(), context.random());
        return Outcome.pass()
                .matrix("projection", rel.outputArray())
                .scalar("lambdaLowerBound", rel.lambdaLowerBound())
                .scalar("ridge", rel.ridge())
                .build();
    }

    /**
     * Runs the test and the projection; the computation behind {@link #compute}. Package-private: releases go
     * through the contract.
     *
     * @param data the database, every row norm {@code <= l} unless clipping
     * @param engine the compute engine (Gram, eigensolver, projection)
     * @param random the source of the test noise and of the ChaCha20 key
     * @return the projection; its ridge is {@code max(l'^2/p* - lambda_lb, 0)} and it carries {@code lambda_lb}
     */
    ProjectionRelease release(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        if (data.rows() > 0) {
            return release(LocalRows.of(data, engine), engine, random);
        }
        double lowerBound = lowerBound(0, SecureGaussianSampler.using(random));
        double ridge = ridge(lowerBound);
        return new ProjectionRelease(RandomProjectionMechanism.project((RowBlockMatrix) null, data.cols(), rank, ridge,
                engine, random), ridge, 1.0, lowerBound);
    }

    /**
     * The test and the projection as row passes: a Gram of the (checked or clipped) rows, its smallest eigenvalue on
     * the caller's machine, the noised lower bound, and the projection pass.
     */
    private ProjectionRelease release(RowSource data, ComputeEngine engine, RandomSource random) {
        RowSource rows = BoundedRows.clip(data, rowBound);
        double lambdaMin = Math.max(0, engine.symmetricEigen(rows.gram(1.0)).value(0));
        double lowerBound = lowerBound(lambdaMin, SecureGaussianSampler.using(random));
        double ridge = ridge(lowerBound);
        DMatrixRMaj m = RandomProjectionMechanism.project(rows, rank, ridge, random);
        return new ProjectionRelease(m, ridge, 1.0, lowerBound);
    }

    /** {@code max(l'^2/p* - lambda_lb, 0)}, rounded up where the subtraction lost the target. */
    private double ridge(double lowerBound) {
        double ridge = Math.max(targetRidge - lowerBound, 0);
        if (ridge > 0 && lowerBound + ridge < targetRidge) {
            ridge = Math.nextUp(ridge);
        }
        return ridge;
    }

    /** Step 3: {@code max(g (round(lambda_min/g) + Z - k - 1), 0)}. */
    double lowerBound(double lambdaMin, SecureGaussianSampler sampler) {
        long index = NoiseGrid.index(lambdaMin, grid);
        long z = sampler.sampleIndex(sT, grid);
        return Math.max(grid * (double) (index + z - marginIndex - 1), 0);
    }

    // ------------------------------------------------------------------ discrete-noise calibration

    /** Upper bound on the hockey-stick divergence of the integer shift C under N_Z(0, s^2) (class comment). */
    static double discreteDelta(double eps, long c, long s) {
        double s2 = (double) s * s;
        double y0 = 0.5 * c - eps * s2 / c;
        if (y0 > 0) {
            return 1; // outside the region where the sum/integral comparison is proved
        }
        double norm = SQRT_2PI * s;
        double gm = GaussianMechanismCurve.delta(eps, (double) c / s);
        return Math.min(1, (norm * gm + 2 * Math.exp(-y0 * y0 / (2 * s2))) / (norm - 1));
    }

    static double testEpsilon(double deltaT, long c, long s) {
        double hi = 1;
        while (discreteDelta(hi, c, s) > deltaT) {
            hi *= 2;
            if (hi > 1e6) {
                throw new IllegalArgumentException("deltaT=" + deltaT + " is not reachable for the PTR test");
            }
        }
        double lo = 0;
        if (discreteDelta(0, c, s) <= deltaT) {
            return 0;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (discreteDelta(mid, c, s) <= deltaT) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi; // feasible end
    }

    /** Upper bound on {@code Pr[Z > k]} for {@code Z ~ N_Z(0, s^2)}. */
    static double discreteTail(long k, long s) {
        double t = k + 1.0;
        double norm = SQRT_2PI * s;
        return (Math.exp(-t * t / (2.0 * s * s)) + norm * Normal.sf(t / s)) / (norm - 1);
    }

    static long marginIndex(double deltaPtr, long s) {
        long k = Math.max(0, (long) Math.ceil(s * Normal.inverseSf(deltaPtr)) - 1);
        while (discreteTail(k, s) > deltaPtr) {
            k++;
        }
        return k;
    }

    /**
     * Builds a {@link PtrProjection} from named parameters (nothing can be swapped silently): rank, budget (its
     * delta split by {@link #deltaSplit}), test noise and row bound are required.
     */
    public static final class Builder extends WrapperBuilder<Builder> {
        private double[] split = {1, 1, 1};
        private Double testNoise;

        private Builder() {
        }

        /**
         * The relative split of the budget's delta into {@code delta_R} (projection), {@code delta_T} (test) and
         * {@code delta_ptr} (failure of the lower bound), normalised to sum 1; default equal thirds (spec §6.4).
         *
         * @param projection weight of delta_R, {@code > 0}
         * @param test weight of delta_T, {@code > 0}
         * @param lowerBoundFailure weight of delta_ptr, {@code > 0}
         * @return this builder
         */
        public Builder deltaSplit(double projection, double test, double lowerBoundFailure) {
            this.split = new double[] {projection, test, lowerBoundFailure};
            return this;
        }

        /**
         * @param sT the standard deviation of the test noise, finite and {@code > 0} (larger costs less epsilon
         *        but loosens the lower bound; the paper gives no default)
         * @return this builder
         */
        public Builder testNoise(double sT) {
            this.testNoise = sT;
            return this;
        }

        /**
         * @return the wrapper
         * @throws IllegalStateException if a required parameter is missing
         * @throws IllegalArgumentException if a parameter is out of range, or {@code eps_T > epsilon} (spec §6.4
         *         edge case: increase sT)
         */
        public PtrProjection build() {
            requireAll("testNoise(sT)", testNoise != null);
            double sum = 0;
            for (double f : split) {
                if (!(f > 0) || !Double.isFinite(f)) {
                    throw new IllegalArgumentException("delta split weight " + f + " is outside (0, inf): each of"
                            + " delta_R, delta_T and delta_ptr needs a positive share");
                }
                sum += f;
            }
            double delta = budget.delta();
            Args.delta("delta", delta);
            double deltaR = delta * split[0] / sum;
            double deltaT = delta * split[1] / sum;
            double deltaPtr = delta * split[2] / sum;
            while (deltaT + deltaR + deltaPtr > delta) {
                deltaPtr = Math.nextDown(deltaPtr); // the composed delta must not exceed the budget's
            }
            return of(rank, budget.epsilon(), rowBound, deltaR, deltaT, deltaPtr, testNoise, clipRows, maxRows);
        }
    }
}
