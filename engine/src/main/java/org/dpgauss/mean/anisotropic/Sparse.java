package org.dpgauss.mean.anisotropic;

import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.DiscreteLaplace;
import org.dpgauss.privacy.noise.NoiseGrid;

/**
 * Algorithm 3 of spec anisotropic-mean-estimation §4.7 (sparse vector technique), in the SOUND form of §4.7 [R] /
 * §9 A6: Dwork &amp; Roth's {@code Sparse} (Algorithm 2 of "The Algorithmic Foundations of DP", Thm 3.25/3.28), i.e.
 * {@code k} compositions of AboveThreshold, each {@code epsilon_0}-DP with threshold noise {@code Lap(2/epsilon_0)}
 * RE-DRAWN after every positive and query noise {@code Lap(4/epsilon_0)} (queries need not be monotone: under
 * replace-one a count can go up and another down). The paper's single-threshold-draw variant with
 * {@code sigma = sqrt(32 k ln(1/delta)/(epsilon n))} has no published proof and is not offered.
 *
 * <p>Queries are given in COUNT units: integers {@code c_i} with sensitivity 1 each (the paper's
 * {@code Q_i = c_i/N_D} with sensitivity {@code 1/N_D}); the threshold likewise ({@code T N_D}). Scanning in index
 * order, index {@code i} is selected iff {@code c_i + nu_i >= T^}; the scan stops after {@code k} selections.
 *
 * <p><b>Privacy.</b> {@code (epsilon, delta)}-DP under {@link NeighbouringRelation#REPLACE_ONE} on the records
 * behind the counts (each record changes every count by at most 1). {@code epsilon_0} is the LARGEST of
 * <ul>
 * <li>{@code epsilon/k} (basic composition, then delta unused), and</li>
 * <li>the largest {@code x} with {@code sqrt(2k ln(1/delta)) x + k x (e^x - 1) <= epsilon} (advanced composition,
 * Dwork–Rothblum–Vadhan, slack {@code delta}; bisection, rounded down).</li>
 * </ul>
 * At Dwork–Roth's {@code epsilon_0 = epsilon/sqrt(8k ln(1/delta))} the threshold scale is
 * {@code sigma = sqrt(32 k ln(1/delta))/epsilon} counts, the corrected §9 A6 scale; the rule above never uses less
 * budget per instance than a valid choice and never more than composition allows.
 *
 * <p><b>Noise.</b> Discrete Laplace (CKS20) on the grid {@code g = min(1, NoiseGrid.spacing(2/epsilon_0))}, integer
 * scales {@code t_1 = ceil((2/epsilon_0)/g)}, {@code t_2 = ceil((4/epsilon_0)/g)}: shifting the threshold by one
 * count costs {@code 1/(g t_1) <= epsilon_0/2}, shifting a query by two counts {@code 2/(g t_2) <= epsilon_0/2}, the
 * AboveThreshold argument verbatim for integer shifts. The public threshold is rounded up to the grid; every
 * comparison is exact. Immutable.
 */
public final class Sparse {

    private final int cutoff;
    private final double epsilon;
    private final double delta;
    private final double epsilon0;
    private final double grid;
    private final long unit;
    private final long thresholdScale;
    private final long queryScale;

    private Sparse(int cutoff, double epsilon, double delta) {
        this.cutoff = cutoff;
        this.epsilon = epsilon;
        this.delta = delta;
        this.epsilon0 = perInstanceEpsilon(cutoff, epsilon, delta);
        if (!(epsilon0 >= SubroutineParams.MIN_EPSILON)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + ", k=" + cutoff + ", delta=" + delta
                    + " give a per-instance epsilon_0=" + epsilon0 + " below 2^-26: the noise would exceed the exact"
                    + " sampling range; raise epsilon or lower k");
        }
        double b1 = 2.0 / epsilon0;
        this.grid = Math.min(1.0, NoiseGrid.spacing("2/epsilon_0", b1));
        this.unit = Math.round(1.0 / grid);
        this.thresholdScale = NoiseGrid.integerScale("2/epsilon_0", b1, grid);
        this.queryScale = NoiseGrid.integerScale("4/epsilon_0", 2 * b1, grid);
    }

    /**
     * @param cutoff {@code k}, the maximum number of selections, in {@code [1, 2^20]}
     * @param epsilon total privacy parameter, in {@code [2^-26, 2^16]}
     * @param delta total privacy parameter (advanced-composition slack), in {@code (0, 1)}
     * @return the mechanism
     */
    public static Sparse of(int cutoff, double epsilon, double delta) {
        if (cutoff < 1 || cutoff > (1 << 20)) {
            throw new IllegalArgumentException("k=" + cutoff + " must be in [1, 2^20]: it is the number of"
                    + " above-threshold answers the sparse vector technique may release");
        }
        return new Sparse(cutoff, SubroutineParams.epsilon("epsilon", epsilon),
                SubroutineParams.delta("delta", delta));
    }

    /** The larger of the basic- and advanced-composition per-instance budgets (class comment). */
    static double perInstanceEpsilon(int k, double epsilon, double delta) {
        double basic = epsilon / k;
        double root = Math.sqrt(2.0 * k * Math.log(1.0 / delta));
        double lo = 0;
        double hi = epsilon;
        for (int it = 0; it < 200; it++) {
            double mid = 0.5 * (lo + hi);
            if (root * mid + k * mid * Math.expm1(mid) <= epsilon) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.max(basic, lo);
    }

    /** @return {@code k} */
    public int cutoff() {
        return cutoff;
    }

    /** @return the per-AboveThreshold budget {@code epsilon_0} */
    public double perInstanceEpsilon() {
        return epsilon0;
    }

    /** @return the effective threshold-noise scale {@code g t_1 >= 2/epsilon_0}, in counts */
    public double thresholdNoiseScale() {
        return grid * thresholdScale;
    }

    /** @return the effective query-noise scale {@code g t_2 >= 4/epsilon_0}, in counts */
    public double queryNoiseScale() {
        return grid * queryScale;
    }

    /**
     * Accuracy radius (Lemma A.1 in this form): with probability {@code >= 1 - beta} every one of the at most
     * {@code k} threshold draws and {@code d} query draws is within {@code scale * ln(2(k+d)/beta)} (discrete
     * Laplace: {@code Pr[|Z| >= t x] <= 2 e^{-x}/(1+e^{-1/t}) < 2e^{-x}}); then every index with
     * {@code c_i >= T + alpha} is selected unless the cutoff was reached, and no index with {@code c_i < T - alpha}
     * is selected. {@code alpha} includes the grid step of the rounded threshold.
     *
     * @param queries the number {@code d >= 1} of queries
     * @param beta failure probability in {@code (0, 1)}
     * @return {@code alpha}, in counts
     */
    public double accuracy(int queries, double beta) {
        if (queries < 1) {
            throw new IllegalArgumentException("queries=" + queries + " must be >= 1");
        }
        SubroutineParams.beta(beta);
        double x = Math.log(2.0 * ((double) cutoff + queries) / beta);
        return (thresholdNoiseScale() + queryNoiseScale()) * x + grid;
    }

    /**
     * Runs the sparse vector technique.
     *
     * @param counts the query answers {@code c_1..c_d} in counts, each in {@code [0, 2^31)}, sensitivity 1 each
     * @param threshold the public threshold {@code T} in counts, finite, {@code |T| <= 2^31}
     * @param random the noise source
     * @return the selected indices (0-based, increasing), at most {@code k} of them
     */
    public int[] select(long[] counts, double threshold, RandomSource random) {
        Objects.requireNonNull(random, "random");
        if (counts == null || counts.length == 0) {
            throw new IllegalArgumentException("counts has length " + (counts == null ? "null" : "0")
                    + ": the sparse vector technique needs d >= 1 queries");
        }
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < 0 || counts[i] >= (1L << 31)) {
                // the count is private: its index only (issue 24, item 2)
                throw new IllegalArgumentException("counts[" + i + "] must be in [0, 2^31):"
                        + " queries are counts of records (sensitivity 1)");
            }
        }
        if (!(Math.abs(threshold) <= 0x1p31)) {
            throw new IllegalArgumentException("threshold=" + threshold + " must be finite with |T| <= 2^31: it"
                    + " is compared with counts");
        }
        long tIndex = (long) Math.ceil(threshold / grid); // public rounding, exact: grid is a power of two
        DiscreteLaplace thresholdNoise = DiscreteLaplace.withScale(thresholdScale);
        DiscreteLaplace queryNoise = DiscreteLaplace.withScale(queryScale);
        int[] out = new int[Math.min(cutoff, counts.length)];
        int found = 0;
        long noisyThreshold = tIndex + thresholdNoise.sample(random);
        for (int i = 0; i < counts.length && found < cutoff; i++) {
            if (counts[i] * unit + queryNoise.sample(random) >= noisyThreshold) {
                out[found++] = i;
                noisyThreshold = tIndex + thresholdNoise.sample(random); // re-drawn (Dwork–Roth Sparse)
            }
        }
        return Arrays.copyOf(out, found);
    }

    /**
     * @return {@code (epsilon, delta)}-DP, replace-one on the records behind the counts (the recipe's
     *         certification; the random source is judged by {@link org.dpgauss.release.Releases})
     */
    public PrivacyGuarantee guarantee() {
        return PrivacyGuarantee.approxDp(NeighbouringRelation.REPLACE_ONE, ApproxDp.of(epsilon, delta),
                true, "sparse vector technique (Algorithm 3, spec anisotropic-mean-estimation §4.7,"
                        + " Dwork-Roth Sparse with re-drawn threshold), k=" + cutoff + ", epsilon_0=" + epsilon0
                        + ", discrete Laplace scales " + thresholdNoiseScale() + "/" + queryNoiseScale());
    }
}
