package org.dpgauss.projection;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.special.Normal;
import org.ejml.data.DMatrixRMaj;

/**
 * The propose-test-release wrapper M_RP^PTR (spec ndis §6.4, Figure 4, Theorem 5.4): a private lower bound
 * {@code lambda_lb} on {@code lambda_min(D^T D)} lets the ridge shrink to {@code max(l^2/p* - lambda_lb, 0)}, with
 * {@code p* = p*(eps_R, delta_R; r)}. {@code (epsilon, delta)}-DP under <b>add/remove</b> neighbours with
 * {@code epsilon = eps_T + eps_R} and {@code delta = delta_R + delta_T + delta_ptr}. There is no FAIL outcome: a
 * poor lower bound only means more ridge (at worst the plain {@code l^2/p*}).
 *
 * <p><b>The test, with exact discrete noise.</b> {@code lambda_min} has add/remove sensitivity {@code l^2} (Weyl).
 * It is rounded to the grid {@code g = SecureGaussianSampler.grid(s_T)} and released as
 * {@code g (round(lambda_min/g) + Z)}, {@code Z ~ N_Z(0, s^2)} with the integer {@code s = ceil(s_T/g)} from
 * {@link SecureGaussianSampler#sampleIndex} (exact integer arithmetic). The integer query has sensitivity
 * {@code C = floor(l^2/g) + 1} (rounding). {@code eps_T} is the smallest value whose <em>discrete</em> hockey-stick
 * divergence is provably {@code <= delta_T}: with {@code w(y) = exp(-y^2/(2 s^2))},
 * {@code y0 = C/2 - eps s^2/C <= 0} and comparing the sums with integrals (w is increasing left of 0),
 * <pre>
 *   delta_disc(eps) <= ( sqrt(2 pi) s * delta_GM(eps; C/s) + 2 w(y0) ) / ( sqrt(2 pi) s - 1 )
 * </pre>
 * ({@code delta_GM} is Prop. 1; the bound increases with the shift, so C covers every shift of CKS20 Thm 7).
 * The margin is {@code alpha = g (k + 1)}, with k the smallest integer whose discrete tail bound
 * {@code (w(k+1) + sqrt(2 pi) s Phi̅((k+1)/s)) / (sqrt(2 pi) s - 1) <= delta_ptr}; the extra g covers the rounding,
 * so on the event {@code Z <= k} (probability {@code >= 1 - delta_ptr}) {@code lambda_lb <= lambda_min(D^T D)}.
 * These bounds make eps_T and alpha marginally larger than the continuous values of spec §6.4 (relative
 * {@code ~1e-6}).
 *
 * <p><b>Not covered</b>: the floating-point computation of {@code lambda_min} (Gram plus symmetric eigensolver;
 * the sensitivity {@code l^2} is that of the exact value) and the projection itself (see
 * {@link RandomProjectionMechanism}). Immutable.
 */
public final class PtrProjection {

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

    private PtrProjection(int rank, double epsilon, double rowBound, double deltaR, double deltaT, double deltaPtr,
            double sT, boolean clipRows) {
        this.rank = rank;
        this.epsilon = epsilon;
        this.rowBound = rowBound;
        this.deltaR = deltaR;
        this.deltaT = deltaT;
        this.deltaPtr = deltaPtr;
        this.sT = sT;
        this.clipRows = clipRows;
        this.grid = SecureGaussianSampler.grid(sT);
        this.scale = NoiseGrid.integerScale("sT", sT, grid);
        double c = Math.floor(rowBound * rowBound / grid) + 1;
        if (!(c <= 0x1p52)) {
            throw new IllegalArgumentException("rowBound=" + rowBound + " is " + c + " grid spacings of the PTR noise"
                    + " (sT=" + sT + "): l^2/sT must be below 2^31 for exact discrete noise; increase sT");
        }
        this.sensitivity = (long) c;
        this.epsilonT = testEpsilon(deltaT, sensitivity, scale);
        if (epsilonT > epsilon) {
            throw new IllegalArgumentException("sT=" + sT + " gives eps_T=" + epsilonT + " > epsilon=" + epsilon
                    + ": the test alone exceeds the budget (spec ndis §6.4, §11.4); increase sT or deltaT");
        }
        this.epsilonR = Math.max(epsilon - epsilonT, 0);
        this.leverage = RandomProjectionCurve.leverageBound(epsilonR, deltaR, rank);
        this.targetRidge = RandomProjectionCurve.ridge(epsilonR, deltaR, rank, rowBound);
        this.marginIndex = marginIndex(deltaPtr, scale);
    }

    /**
     * @param r the number of projection columns, {@code >= 1}
     * @param epsilon the total privacy loss, finite and {@code > 0}
     * @param rowBound the public row-norm bound l, finite and {@code > 0}
     * @param deltaR delta of the projection, in {@code (0, 1)}
     * @param deltaT delta of the test, in {@code (0, 1)}
     * @param deltaPtr probability that the lower bound fails, in {@code (0, 1)}
     * @param sT standard deviation of the test noise, finite and {@code > 0}
     * @return the wrapper
     * @throws IllegalArgumentException if an argument is out of range, the deltas sum to 1 or more, or
     *         {@code eps_T > epsilon} (spec §6.4 edge case: increase sT)
     */
    public static PtrProjection of(int r, double epsilon, double rowBound, double deltaR, double deltaT,
            double deltaPtr, double sT) {
        RandomProjectionMechanism.check(r, epsilon, deltaR, rowBound);
        Args.delta("deltaT", deltaT);
        Args.delta("deltaPtr", deltaPtr);
        Args.delta("deltaR + deltaT + deltaPtr", deltaR + deltaT + deltaPtr);
        Args.positive("sT", sT, "the PTR test noise standard deviation must be positive (spec ndis §6.4)");
        return new PtrProjection(r, epsilon, rowBound, deltaR, deltaT, deltaPtr, sT, false);
    }

    /**
     * The equal split {@code delta_R = delta_T = delta_ptr = delta/3} of spec §6.4's example.
     *
     * @param r the number of projection columns
     * @param epsilon the total privacy loss
     * @param delta the total delta, in {@code (0, 1)}
     * @param rowBound the public row-norm bound l
     * @param sT standard deviation of the test noise
     * @return the wrapper
     */
    public static PtrProjection equalSplit(int r, double epsilon, double delta, double rowBound, double sT) {
        Args.delta("delta", delta);
        return of(r, epsilon, rowBound, delta / 3, delta / 3, delta / 3, sT);
    }

    /**
     * @param clip whether rows above the bound are clipped (true) or rejected (false, the default)
     * @return a copy with that row policy
     */
    public PtrProjection clippingRows(boolean clip) {
        return new PtrProjection(rank, epsilon, rowBound, deltaR, deltaT, deltaPtr, sT, clip);
    }

    /** @return eps_T of the test (discrete-noise bound) */
    public double epsilonT() {
        return epsilonT;
    }

    /** @return eps_R = epsilon - eps_T left for the projection */
    public double epsilonR() {
        return epsilonR;
    }

    /** @return p*(eps_R, delta_R; r) */
    public double leverage() {
        return leverage;
    }

    /** @return {@code l^2 / p*}: the lower bound on lambda_min of the ridged Gram matrix the release ensures */
    public double targetRidge() {
        return targetRidge;
    }

    /** @return the margin alpha subtracted from the noisy lambda_min */
    public double alpha() {
        return grid * (marginIndex + 1);
    }

    /** @return the total delta {@code delta_R + delta_T + delta_ptr} */
    public double delta() {
        return deltaR + deltaT + deltaPtr;
    }

    /**
     * Prop. 5: PTR adds less ridge than M_RP at the full {@code (epsilon, delta)} when {@code lambda_min(D^T D)}
     * exceeds this and the noise draw is {@code >= 0} (spec §11.2).
     *
     * @return {@code alpha + l^2/p*(eps_R, delta_R) - l^2/p*(eps, delta)}
     */
    public double propositionFiveThreshold() {
        return alpha() + targetRidge - RandomProjectionCurve.ridge(epsilon, delta(), rank, rowBound);
    }

    /**
     * @param random the randomness of the release
     * @return {@code (epsilon, delta_R + delta_T + delta_ptr)}-DP under add/remove neighbours
     */
    public PrivacyGuarantee guarantee(RandomSource random) {
        return PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, ApproxDp.of(epsilon, delta()),
                !random.isInsecure(), RandomProjectionMechanism.notes("PTR ridge (eps_T=" + epsilonT + ", eps_R="
                        + epsilonR + "; discrete Gaussian test noise); lambda_min computed in floating point; ",
                        random));
    }

    /**
     * Runs the test and the projection.
     *
     * @param data the database, every row norm {@code <= l} unless clipping
     * @param engine the compute engine (Gram, eigensolver, projection)
     * @param random the source of the test noise and of the ChaCha20 key
     * @return the release; its ridge is {@code max(l^2/p* - lambda_lb, 0)} and its details carry
     *         {@code lambda_lb} (part of the private output, covered by the test's (eps_T, delta_T))
     */
    public ProjectionRelease release(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        BoundedRows rows = BoundedRows.check(data, rowBound, clipRows);
        double lambdaMin = 0;
        if (rows.data() != null) {
            DMatrixRMaj gram = engine.weightedGram(rows.data(), null, null, 1.0);
            lambdaMin = Math.max(0, engine.symmetricEigen(gram).value(0));
        }
        double lowerBound = lowerBound(lambdaMin, SecureGaussianSampler.using(random));
        double ridge = Math.max(targetRidge - lowerBound, 0);
        if (ridge > 0 && lowerBound + ridge < targetRidge) {
            ridge = Math.nextUp(ridge);
        }
        DMatrixRMaj m = RandomProjectionMechanism.project(rows.data(), data.cols(), rank, ridge, engine, random);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("mechanism", "M_RP^PTR");
        details.put("epsilon_T", epsilonT);
        details.put("epsilon_R", epsilonR);
        details.put("delta_R", deltaR);
        details.put("delta_T", deltaT);
        details.put("delta_ptr", deltaPtr);
        details.put("s_T", sT);
        details.put("alpha", alpha());
        details.put("leverage", leverage);
        details.put("target_ridge", targetRidge);
        details.put("lambda_lb", lowerBound);
        details.put("ridge", ridge);
        details.put("clipped_rows", rows.clipped());
        return new ProjectionRelease(m, ridge, 1.0, rows.data() == null ? 0 : rows.data().rows(), rows.clipped(),
                guarantee(random), details);
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
}
