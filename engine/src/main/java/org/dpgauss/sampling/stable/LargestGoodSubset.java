package org.dpgauss.sampling.stable;

import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * LargestGoodSubset_lambda(Y) (spec unbounded-gaussian-sampling §3.3, Algorithm 4), in two forms that
 * return identical sets:
 *
 * <ul>
 * <li>{@link #literal}: Algorithm 4 as written. Every round refits {@code A = (1/m) sum_{j in S} y_j y_j^T}
 * (engine {@code weightedGram}), factors it (engine {@code cholesky}; a failed factorisation is "A singular",
 * which removes all of S) and removes every {@code i in S} with {@code y_i^T A^{-1} y_i > lambda} (engine
 * {@code mahalanobisNorms}); it stops when a round removes nothing. {@link #literalAll} runs it from [m]
 * independently for each threshold.</li>
 * <li>{@link #productionAll}: all thresholds of a ladder at once, in descending order with a warm start
 * (the sets are nested, §3.3), so a threshold at which no norm crosses costs one comparison per active row.
 * After removals, the Cholesky factor of A is downdated on the host (one rank-one downdate per removed row,
 * O(d^2) each), and only the rows whose norm could have reached the threshold are recomputed with the
 * downdated factor (engine {@code mahalanobisNorms} on those rows): removing a batch B scales every norm by at
 * most {@code 1/(1 - rho)}, rho the largest eigenvalue of {@code A^{-1/2} (1/m) Y_B^T Y_B A^{-1/2}} (at most
 * {@code sum_{b in B} q_b/m}; a Loewner bound), so rows far below the threshold keep a certified upper bound
 * instead of a recomputed value. The Gram is refitted only when a quarter of the active rows go at once,
 * after 1024 downdates, when a downdate loses positive definiteness or the factor's condition estimate
 * exceeds 1e8, or when a comparison falls near the threshold. An optional stop rule ends the
 * ladder early once the caller (StableCov's score) no longer needs the remaining thresholds (§7).</li>
 * </ul>
 *
 * <p><b>Why the two agree bit for bit.</b> Both return the unique largest good set (good sets are closed
 * under union, §3.3), so they can differ only where floating point decides a comparison differently. Every
 * value either version compares is computed by the same "canonical round" ({@link #canonicalRound}: Gram of
 * the sorted active rows with divisor m, Cholesky, norms) except the production version's downdated norms;
 * those are only trusted when they lie more than a relative margin {@link #MARGIN} away from lambda. A
 * downdated norm inside the margin triggers a canonical refit of the current set; a canonical norm inside
 * the margin, or a canonical factor whose smallest pivot is within a factor {@link #PIVOT_MARGIN} of the
 * singularity tolerance, makes the production version hand that threshold to the literal algorithm (and
 * continue from its answer). So any set that depends on a rounding-level decision is the literal answer by
 * construction, and every other decision is the same in exact and in floating-point arithmetic. The
 * remaining gap - the literal reference itself rounding a comparison at a set the production version
 * never visits - needs a norm within ~1e-13 of lambda at a superset of the answer; there the literal
 * answer is itself not the exact largest good set.
 *
 * <p><b>Scale-free rounds (issue 24, item 3).</b> A canonical round first lets the set's certified violators go
 * ({@code cpu.CertifiedViolators}: rows holding more than lambda/m of a coordinate's sum of squares, whose norm
 * exceeds lambda whatever A is), decides "A singular" with a pivot tolerance relative to each column's own
 * diagonal entry ({@code CholeskyResult}), and runs a set swamped by at most four rows (they hold all but 1e-3
 * of a coordinate's total, possible only when lambda > m/4) in a basis of its own ({@code cpu.DominantRows}); the
 * production version refits instead of downdating such a factor. One row at any scale therefore cannot empty
 * a set that exact arithmetic keeps. Design record {@code docs/design/largest-good-subset.md}.
 */
public final class LargestGoodSubset {

    /** Relative margin around lambda inside which a comparison is re-done canonically (see class doc). */
    static final double MARGIN = 1e-7;
    /** A canonical factor with {@code min_j L_jj^2 / a_jj <= PIVOT_MARGIN * tol} is treated as a near tie. */
    static final double PIVOT_MARGIN = 1e4;
    /** Refit instead of downdating when one round removes more than this fraction of the active rows. */
    static final double DOWNDATE_FRACTION = 0.25;
    /** Refit after this many downdates since the last canonical fit (bounds accumulated rounding). */
    static final int MAX_DOWNDATES = 1024;
    /** Refit when the downdated factor's diagonal ratio squared (a condition estimate) exceeds this. */
    static final double MAX_CONDITION = 1e8;

    private LargestGoodSubset() {
    }

    /**
     * Algorithm 4 as written, from S = [m], divisor m = y.rows(): refit, remove violators, repeat.
     *
     * @param lambda threshold, finite and > 0
     */
    public static GoodSubset literal(RowBlockMatrix y, double lambda, ComputeEngine engine) {
        checkData(y);
        checkLambda(lambda, "lambda");
        Objects.requireNonNull(engine, "engine");
        // the one peeling loop (cpu-fallback), run on this engine's primitives
        return org.dpgauss.cpu.LargestGoodSubsetPeeling.peel(y, lambda, null, y.rows(),
                new org.dpgauss.cpu.LargestGoodSubsetPeeling.Primitives() {
                    @Override
                    public DMatrixRMaj weightedGram(RowBlockMatrix rows, int[] active, double divisor) {
                        return engine.weightedGram(rows, active, null, divisor);
                    }

                    @Override
                    public CholeskyResult cholesky(DMatrixRMaj a) {
                        return engine.cholesky(a);
                    }

                    @Override
                    public double[] mahalanobisNorms(RowBlockMatrix rows, DMatrixRMaj lower, int[] active) {
                        return engine.mahalanobisNorms(rows, lower, active);
                    }
                });
    }

    /** {@link #literal} independently for every threshold; result index = threshold index. */
    public static GoodSubset[] literalAll(RowBlockMatrix y, double[] lambdas, ComputeEngine engine) {
        checkLadder(lambdas);
        GoodSubset[] out = new GoodSubset[lambdas.length];
        for (int l = 0; l < lambdas.length; l++) {
            out[l] = literal(y, lambdas[l], engine);
        }
        return out;
    }

    /** The production version for every threshold of an increasing ladder; same sets as {@link #literalAll}. */
    public static GoodSubset[] productionAll(RowBlockMatrix y, double[] lambdas, ComputeEngine engine) {
        return production(y, lambdas, engine, null, null);
    }

    /** Decides, after the set for threshold index l is known, whether the lower thresholds are still needed. */
    @FunctionalInterface
    public interface StopRule {
        /**
         * @param l    the threshold index just computed (they are computed from the top down)
         * @param size |S_l|
         * @return true to skip thresholds l-1..0 (their entries stay null)
         */
        boolean stopAfter(int l, int size);
    }

    /** Counters of the work the production version did (for benchmarks and tests). */
    public static final class Stats {
        int canonicalRounds;
        int downdates;
        int downdateNormPasses;
        long normsRecomputed;
        int literalReplays;
        int thresholdsComputed;

        public int canonicalRounds() {
            return canonicalRounds;
        }

        public int downdates() {
            return downdates;
        }

        public int downdateNormPasses() {
            return downdateNormPasses;
        }

        /** Rows whose norms were recomputed with a downdated factor (summed over passes). */
        public long normsRecomputed() {
            return normsRecomputed;
        }

        public int literalReplays() {
            return literalReplays;
        }

        public int thresholdsComputed() {
            return thresholdsComputed;
        }

        @Override
        public String toString() {
            return "Stats[canonicalRounds=" + canonicalRounds + ", downdates=" + downdates + ", downdateNormPasses="
                    + downdateNormPasses + ", normsRecomputed=" + normsRecomputed + ", literalReplays=" + literalReplays + ", thresholdsComputed="
                    + thresholdsComputed + "]";
        }
    }

    /**
     * The production version (see class doc). Thresholds are processed from the largest down; entries the
     * stop rule skips are null.
     *
     * @param lambdas increasing thresholds (StableCov: e^{l/k} lambda0, l = 0..2k)
     * @param stop    optional early exit
     * @param stats   optional work counters, filled in
     */
    public static GoodSubset[] production(RowBlockMatrix y, double[] lambdas, ComputeEngine engine, StopRule stop,
            Stats stats) {
        checkData(y);
        checkLadder(lambdas);
        Objects.requireNonNull(engine, "engine");
        Stats st = stats == null ? new Stats() : stats;
        Peeler p = new Peeler(y, engine, st);
        GoodSubset[] out = new GoodSubset[lambdas.length];
        for (int l = lambdas.length - 1; l >= 0; l--) {
            out[l] = p.peel(lambdas[l]);
            st.thresholdsComputed++;
            if (stop != null && l > 0 && stop.stopAfter(l, out[l].size())) {
                break;
            }
        }
        return out;
    }

    /** One canonical round on a set: Gram of the sorted rows with divisor m, Cholesky, norms. */
    static Canonical canonicalRound(RowBlockMatrix y, int[] activeSorted, ComputeEngine engine) {
        return canonicalRound(y, activeSorted, engine,
                org.dpgauss.cpu.CertifiedViolators.columns(y, activeSorted));
    }

    /** {@link #canonicalRound(RowBlockMatrix, int[], ComputeEngine)} with the set's columns already computed. */
    static Canonical canonicalRound(RowBlockMatrix y, int[] activeSorted, ComputeEngine engine,
            org.dpgauss.cpu.CertifiedViolators.Columns columns) {
        int m = y.rows();
        // a set with a dominant row runs in a basis of its own (cpu.DominantRows): same norms, no swamping
        RowBlockMatrix rotated = org.dpgauss.cpu.DominantRows.deflate(y, activeSorted, columns);
        RowBlockMatrix rows = rotated == null ? y : rotated;
        int[] idx = rotated == null ? activeSorted
                : org.dpgauss.cpu.LargestGoodSubsetPeeling.identity(activeSorted.length);
        DMatrixRMaj a = engine.weightedGram(rows, idx, null, m);
        CholeskyResult chol = engine.cholesky(a);
        if (!chol.isPositiveDefinite()) {
            return new Canonical(null, null, false, rotated != null);
        }
        DMatrixRMaj lower = chol.lower();
        double[] q = engine.mahalanobisNorms(rows, lower, idx);
        // near tie with the singularity test: the smallest pivot relative to its own diagonal entry (the
        // equilibrated pivot, CholeskyResult) within PIVOT_MARGIN of the relative tolerance
        double minRatio = Double.POSITIVE_INFINITY;
        for (int j = 0; j < a.numRows; j++) {
            double p = lower.unsafe_get(j, j);
            minRatio = Math.min(minRatio, p * p / Math.abs(a.unsafe_get(j, j)));
        }
        return new Canonical(lower, q, minRatio <= PIVOT_MARGIN * CholeskyResult.relativePivotTolerance(a.numRows),
                rotated != null);
    }

    /** Result of a canonical round; lower == null means singular (or not positive definite). */
    static final class Canonical {
        final DMatrixRMaj lower;
        final double[] norms;
        final boolean nearSingular;
        /** Whether the round ran in a rotated basis (DominantRows): its factor is not one of A in y's basis. */
        final boolean rotated;

        Canonical(DMatrixRMaj lower, double[] norms, boolean nearSingular, boolean rotated) {
            this.lower = lower;
            this.norms = norms;
            this.nearSingular = nearSingular;
            this.rotated = rotated;
        }
    }

    /**
     * Warm-started peeling state shared across descending thresholds.
     *
     * <p>Norms are recomputed lazily. Removing a batch B from S gives {@code A' = A - (1/m) Y_B^T Y_B
     * >= (1 - rho) A} with rho the largest eigenvalue of {@code A^{-1/2} (1/m) Y_B^T Y_B A^{-1/2}} (computed,
     * with a safety margin, by {@link #spectralRho}; never above the trace {@code sum_{b in B} q_b / m}), hence {@code q_i' <= q_i / (1 - rho)} for every remaining row.
     * Each row keeps its last computed norm and the growth factor at that time, so
     * {@code bound_i = q_i * growth / growthAt_i} is an upper bound of its current norm; only rows whose bound
     * reaches {@code lambda (1 - MARGIN)} ("candidates") have their norms recomputed with the downdated factor
     * (engine {@code mahalanobisNorms} on those rows). Rows below that are certainly kept, with margin.
     */
    private static final class Peeler {
        /** Above this rho the Loewner bound is too loose to help: recompute all norms instead. */
        private static final double MAX_RHO = 0.5;

        private final RowBlockMatrix y;
        private final ComputeEngine engine;
        private final Stats stats;
        private final int m;
        private final int d;
        private final boolean[] s;
        private int count;
        /** Last computed norm per row (valid for active rows). */
        private final double[] q;
        /** The growth factor when q_i was computed. */
        private final double[] growthAt;
        /** Product of 1/(1 - rho) over the batches removed since the last canonical fit. */
        private double growth;
        /** Incremented whenever the factor changes; {@code at[i] == version} marks a current norm. */
        private long version;
        private final long[] at;
        /** Current factor of A_S (row-major d x d lower), null if S is empty or singular. */
        private double[] lower;
        /** Whether q and lower come from a canonical round on the current S. */
        private boolean exact;
        private boolean nearSingular;
        private int downdatesSinceFit;
        /** False until the first canonical round (which needs a threshold for its certified violators). */
        private boolean fitted;
        /** The factor is in a rotated basis (DominantRows): no downdates with y's rows, refit after removals. */
        private boolean rotated;

        Peeler(RowBlockMatrix y, ComputeEngine engine, Stats stats) {
            this.y = y;
            this.engine = engine;
            this.stats = stats;
            this.m = y.rows();
            this.d = y.cols();
            this.s = new boolean[m];
            Arrays.fill(s, true);
            this.count = m;
            this.q = new double[m];
            this.growthAt = new double[m];
            this.at = new long[m];
            this.fitted = false; // the first canonical round needs the first (largest) threshold
        }

        /**
         * A canonical round on the current set, after its certified violators at lambda (the current threshold)
         * have left: they are violators at every lower threshold too (nesting), and without them no row dominates
         * the Gram whose singularity is decided (cpu.CertifiedViolators, issue 24 item 3).
         */
        private void refit(double lambda) {
            fitted = true;
            int[] active = GoodSubset.indicesOf(s);
            org.dpgauss.cpu.CertifiedViolators.Outcome pre =
                    org.dpgauss.cpu.CertifiedViolators.removeAll(y, s, active, lambda, m);
            if (pre.removed() > 0) {
                count -= pre.removed();
                active = GoodSubset.indicesOf(s);
            }
            stats.canonicalRounds++;
            downdatesSinceFit = 0;
            growth = 1;
            version++;
            Arrays.fill(growthAt, 1);
            Arrays.fill(at, version);
            if (active.length == 0) {
                lower = null;
                exact = true;
                nearSingular = false;
                rotated = false;
                return;
            }
            Canonical c = canonicalRound(y, active, engine, pre.columns()); // the columns of exactly this set
            exact = true;
            nearSingular = c.nearSingular;
            rotated = c.rotated;
            if (c.lower == null) {
                lower = null;
                return;
            }
            lower = c.lower.data.clone();
            for (int k = 0; k < active.length; k++) {
                q[active[k]] = c.norms[k];
            }
        }

        private void clear() {
            Arrays.fill(s, false);
            count = 0;
            lower = null;
            exact = true;
            nearSingular = false;
        }

        GoodSubset peel(double lambda) {
            int rounds = 0;
            while (true) {
                if (!fitted && count > 0) {
                    refit(lambda);
                }
                if (count == 0) {
                    return new GoodSubset(s, rounds);
                }
                rounds++;
                if (lower == null) {
                    clear(); // canonical verdict: A_S singular, so OUT = S
                    return new GoodSubset(s, rounds);
                }
                if (exact && nearSingular) {
                    return replay(lambda, rounds);
                }
                double lo = lambda * (1 - MARGIN);
                double hi = lambda * (1 + MARGIN);
                if (!exact) {
                    refreshCandidates(lo);
                }
                boolean doubt = false;
                int out = 0;
                for (int i = 0; i < m; i++) {
                    if (s[i] && at[i] == version) { // current values; stale rows are bounded below lo
                        double v = q[i];
                        if (v > lo && v <= hi) {
                            doubt = true;
                        }
                        if (v > lambda) {
                            out++;
                        }
                    }
                }
                if (doubt) {
                    if (!exact) {
                        refit(lambda);
                        continue;
                    }
                    return replay(lambda, rounds);
                }
                if (out == 0) {
                    return new GoodSubset(s, rounds);
                }
                int[] removed = new int[out];
                int r = 0;
                double rho = 0;
                for (int i = 0; i < m; i++) {
                    if (s[i] && at[i] == version && q[i] > lambda) {
                        removed[r++] = i;
                        s[i] = false;
                        rho += q[i] / m;
                    }
                }
                count -= out;
                if (count == 0) {
                    lower = null;
                    exact = true;
                    continue;
                }
                if (rotated) {
                    refit(lambda); // the factor is not in y's basis: no downdate
                    continue;
                }
                // b downdates cost b d^2 against ~1.5 m d^2 for a refit
                if (out > DOWNDATE_FRACTION * count || downdatesSinceFit + out > MAX_DOWNDATES) {
                    refit(lambda);
                    continue;
                }
                rho = Math.min(rho, spectralRho(removed, rho));
                if (!downdate(removed)) {
                    refit(lambda);
                } else if (rho < MAX_RHO) {
                    growth /= 1 - rho;
                    version++;
                    exact = false;
                } else {
                    // the bound would be loose (or invalid for rho >= 1): recompute every norm with the new factor
                    version++;
                    exact = false;
                    recomputeAll();
                }
            }
        }

        /**
         * A sharper rho for removing B: {@code A - (1/m) Y_B^T Y_B = L (I - Z^T Z) L^T} with rows
         * {@code z_b = L^{-1} y_b / sqrt m}, so {@code A' >= (1 - lambda_max(Z Z^T)) A}; the trace bound
         * {@code sum q_b / m} is loose when the removed rows point in different directions. lambda_max from the
         * engine's symmetric eigensolver on the smaller of Z Z^T (b x b) and Z^T Z (d x d), inflated by a
         * relative 1e-9 plus 1e-12 of the trace to cover its rounding (backward-stable solver); never above the
         * trace bound.
         */
        private double spectralRho(int[] removed, double traceRho) {
            int b = removed.length;
            if (b > 4 * d) {
                return traceRho; // d x d form would cost b d^2, comparable to the saving; keep the trace bound
            }
            double[][] z = new double[b][d];
            double sm = Math.sqrt((double) m);
            for (int t = 0; t < b; t++) {
                y.copyRow(removed[t], z[t], 0);
                MahalanobisForward.solve(lower, d, z[t]);
                for (int j = 0; j < d; j++) {
                    z[t][j] /= sm;
                }
            }
            DMatrixRMaj g;
            if (b <= d) {
                g = new DMatrixRMaj(b, b);
                for (int a = 0; a < b; a++) {
                    for (int c = 0; c <= a; c++) {
                        double v = 0;
                        for (int j = 0; j < d; j++) {
                            v += z[a][j] * z[c][j];
                        }
                        g.unsafe_set(a, c, v);
                        g.unsafe_set(c, a, v);
                    }
                }
            } else {
                g = new DMatrixRMaj(d, d);
                for (int t = 0; t < b; t++) {
                    for (int i = 0; i < d; i++) {
                        double zi = z[t][i];
                        for (int j = 0; j <= i; j++) {
                            g.data[i * d + j] += zi * z[t][j];
                        }
                    }
                }
                for (int i = 0; i < d; i++) {
                    for (int j = 0; j < i; j++) {
                        g.data[j * d + i] = g.data[i * d + j];
                    }
                }
            }
            double[] ev = engine.symmetricEigen(g).values();
            double max = ev[ev.length - 1];
            if (!Double.isFinite(max)) {
                return traceRho;
            }
            return Math.min(traceRho, max * (1 + 1e-9) + 1e-12 * traceRho);
        }

        /** All active norms with the current (downdated) factor; the bounds restart from them. */
        private void recomputeAll() {
            int[] rows = GoodSubset.indicesOf(s);
            double[] nq = engine.mahalanobisNorms(y, DMatrixRMaj.wrap(d, d, lower), rows);
            stats.downdateNormPasses++;
            stats.normsRecomputed += rows.length;
            growth = 1;
            for (int t = 0; t < rows.length; t++) {
                q[rows[t]] = nq[t];
                growthAt[rows[t]] = 1;
                at[rows[t]] = version;
            }
        }

        /** Recomputes, with the current (downdated) factor, the norms of active rows whose bound reaches lo. */
        private void refreshCandidates(double lo) {
            int c = 0;
            for (int i = 0; i < m; i++) {
                if (s[i] && at[i] != version && q[i] * (growth / growthAt[i]) > lo) {
                    c++;
                }
            }
            if (c == 0) {
                return;
            }
            int[] rows = new int[c];
            int k = 0;
            for (int i = 0; i < m; i++) {
                if (s[i] && at[i] != version && q[i] * (growth / growthAt[i]) > lo) {
                    rows[k++] = i;
                }
            }
            double[] nq = engine.mahalanobisNorms(y, DMatrixRMaj.wrap(d, d, lower), rows);
            stats.downdateNormPasses++;
            stats.normsRecomputed += c;
            for (int t = 0; t < c; t++) {
                q[rows[t]] = nq[t];
                growthAt[rows[t]] = growth;
                at[rows[t]] = version;
            }
        }

        /** The literal algorithm for this threshold; the production state continues from its answer. */
        private GoodSubset replay(double lambda, int rounds) {
            stats.literalReplays++;
            GoodSubset g = literal(y, lambda, engine);
            // the answer is a subset of the current S (nesting), so the warm start stays valid
            for (int i = 0; i < m; i++) {
                s[i] = g.contains(i);
            }
            count = g.size();
            refit(lambda);
            return new GoodSubset(s, rounds + g.rounds());
        }

        /**
         * Rank-one downdates {@code L L^T - v v^T}, v = y_i / sqrt(m), for each removed row, on a copy; false
         * (factor unchanged) when a pivot collapses (the set lost a direction) or the condition estimate
         * exceeds {@link #MAX_CONDITION}.
         */
        private boolean downdate(int[] removed) {
            double[] l = lower.clone();
            double[] v = new double[d];
            double sm = Math.sqrt((double) m);
            for (int i : removed) {
                y.copyRow(i, v, 0);
                for (int j = 0; j < d; j++) {
                    v[j] /= sm;
                }
                if (!downdateOne(l, v, d)) {
                    return false;
                }
                stats.downdates++;
            }
            double maxDiag = 0;
            double minDiag = Double.POSITIVE_INFINITY;
            for (int j = 0; j < d; j++) {
                double p = l[j * d + j];
                maxDiag = Math.max(maxDiag, p);
                minDiag = Math.min(minDiag, p);
            }
            double ratio = maxDiag / minDiag;
            if (!(ratio * ratio <= MAX_CONDITION)) {
                return false;
            }
            lower = l;
            downdatesSinceFit += removed.length;
            return true;
        }
    }

    /**
     * In place: L <- chol(L L^T - v v^T) (row-major lower, v destroyed); false when a pivot would fall to
     * below 1e-8 of its old value, i.e. the downdated matrix is (numerically) singular.
     */
    static boolean downdateOne(double[] l, double[] v, int d) {
        for (int k = 0; k < d; k++) {
            double lkk = l[k * d + k];
            double r2 = (lkk - v[k]) * (lkk + v[k]);
            if (!(r2 > 1e-16 * lkk * lkk)) {
                return false;
            }
            double r = Math.sqrt(r2);
            double c = r / lkk;
            double sn = v[k] / lkk;
            l[k * d + k] = r;
            for (int i = k + 1; i < d; i++) {
                double lik = (l[i * d + k] - sn * v[i]) / c;
                l[i * d + k] = lik;
                v[i] = c * v[i] - sn * lik;
            }
        }
        return true;
    }

    /** Forward substitution z <- L^{-1} z with a row-major lower factor. */
    static final class MahalanobisForward {
        private MahalanobisForward() {
        }

        static void solve(double[] l, int d, double[] z) {
            for (int j = 0; j < d; j++) {
                int rj = j * d;
                double v = z[j];
                for (int k = 0; k < j; k++) {
                    v -= l[rj + k] * z[k];
                }
                z[j] = v / l[rj + j];
            }
        }
    }

    static void checkData(RowBlockMatrix y) {
        Objects.requireNonNull(y, "data matrix");
        if (y.rows() < 1) {
            throw new IllegalArgumentException("data matrix has no rows; LargestGoodSubset needs m >= 1 rows");
        }
    }

    static void checkLambda(double lambda, String name) {
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException(name + "=" + lambda + " must be finite and > 0");
        }
    }

    static void checkLadder(double[] lambdas) {
        Objects.requireNonNull(lambdas, "thresholds");
        if (lambdas.length == 0) {
            throw new IllegalArgumentException("threshold ladder is empty; need at least one threshold");
        }
        for (int l = 0; l < lambdas.length; l++) {
            checkLambda(lambdas[l], "threshold lambda_" + l);
            if (l > 0 && !(lambdas[l] >= lambdas[l - 1])) {
                throw new IllegalArgumentException("thresholds must be non-decreasing: lambda_" + l + "=" + lambdas[l]
                        + " < lambda_" + (l - 1) + "=" + lambdas[l - 1]);
            }
        }
    }
}
