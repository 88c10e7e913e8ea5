package org.dpgauss.sampling.stable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.dpgauss.cpu.CertifiedViolators;
import org.dpgauss.cpu.DominantRows;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSource;
import org.ejml.data.DMatrixRMaj;

/**
 * StableCov and StableMean (spec unbounded-gaussian-sampling §3.2-§3.5) as passes over a {@link RowSource}, so
 * that they run on rows held by a cluster. The caller's machine keeps the per-row state (the rows each threshold
 * removed, as sorted positions: few for Gaussian-like data) and does the d x d work; the passes compute Grams of
 * the active rows, Mahalanobis norms, whitened distances to the reference set and weighted sums block by block.
 *
 * <p>LargestGoodSubset runs from the largest threshold down with a warm start (the sets are nested, §3.3) and the
 * early stop of {@link StableCov#apply}; every round is a canonical round (Gram of the active rows with divisor m,
 * Cholesky, norms: one pass that also forms the next round's Gram). A round that removes nothing returns the norms
 * above the lowest threshold, which answer the next thresholds without a pass until one of them removes a row: the
 * ladder costs one pass, plus one per round that removes rows, plus one to confirm each new set. {@link LargestGoodSubset} explains why the sets equal those of the production version;
 * on one block every engine call is the one {@link StableCov} and {@link StableMean} make on the whole matrix, so
 * the results have the same bits. Not private on their own (spec §5).
 *
 * <p>As in {@link LargestGoodSubset}, the certified violators of a set leave before its Gram is factored (passes
 * run only when the column maxima and the Gram's diagonal say one may exist), and a set that four rows may swamp
 * (only when lambda > m/4, i.e. few pairs) is finished on the pairs collected on the caller's machine by the
 * production version, which decides it in a rotated basis (issue 24, item 3).
 */
public final class StableRows {

    private StableRows() {
    }

    /** StableCov's outcome on paired rows: the score and the level at which each removed row left. */
    public static final class Cov {
        private final RowSource pairs;
        private final int k;
        private final int score;
        private final long[] removed;
        private final int[] level;
        private final int collapsedAt;

        private Cov(RowSource pairs, int k, int score, long[] removed, int[] level, int collapsedAt) {
            this.pairs = pairs;
            this.k = k;
            this.score = score;
            this.removed = removed;
            this.level = level;
            this.collapsedAt = collapsedAt;
        }

        /** @return Score in {0..k} */
        public int score() {
            return score;
        }

        /** @return m, the number of pairs */
        public long m() {
            return pairs.rows();
        }

        /** @return {@code Sigma-hat = sum_i w_i Y_i Y_i^T} (engine weightedGram with divisor 1; one pass) */
        public DMatrixRMaj sigmaHat() {
            Weights w = weights();
            return pairs.reduce((b, y, e) -> e.weightedGram(y, null, w.of(b, y.rows()), 1.0), RowSource::fold);
        }

        /**
         * @param z one entry per pair
         * @return {@code W z = sum_i z_i sqrt(w_i) Y_i} (one pass; z is the release's noise, so it travels as a
         *     per-row vector, which a cluster broadcasts and destroys after the pass)
         */
        public double[] combine(double[] z) {
            Objects.requireNonNull(z, "z");
            if (z.length != pairs.rows()) {
                throw new IllegalArgumentException("z has " + z.length + " entries, expected one per pair (m="
                        + pairs.rows() + ")");
            }
            Weights w = weights();
            int d = pairs.cols();
            return pairs.reduce(z, (b, y, zb, e) -> {
                double[] wb = w.of(b, y.rows());
                double[] out = new double[d];
                double[] row = new double[d];
                for (int i = 0; i < wb.length; i++) {
                    if (wb[i] == 0) {
                        continue;
                    }
                    double c = zb[i] * Math.sqrt(wb[i]);
                    y.copyRow(i, row, 0);
                    for (int j = 0; j < d; j++) {
                        out[j] += c * row[j];
                    }
                }
                return out;
            }, StableRows::add);
        }

        private Weights weights() {
            return new Weights(pairs.layout(), k, pairs.rows(), removed, level, collapsedAt);
        }
    }

    /** {@code w_i = #{l in k+1..2k : i in S_l} / (k m)} from the removal levels (S_l holds i iff l &gt; level_i). */
    private static final class Weights implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final RowLayout layout;
        private final int k;
        private final long m;
        private final long[] removed;
        private final int[] level;
        private final int collapsedAt;

        Weights(RowLayout layout, int k, long m, long[] removed, int[] level, int collapsedAt) {
            this.layout = layout;
            this.k = k;
            this.m = m;
            this.removed = removed;
            this.level = level;
            this.collapsedAt = collapsedAt;
        }

        double[] of(int block, int rows) {
            long start = layout.blockStart(block);
            double km = (double) k * m;
            double[] w = new double[rows];
            int r = lowerBound(removed, start);
            for (int i = 0; i < rows; i++) {
                int lv = collapsedAt;
                if (r < removed.length && removed[r] == start + i) {
                    lv = level[r++];
                }
                int count = lv < 0 ? k : 2 * k - Math.max(lv, k);
                w[i] = count / km;
            }
            return w;
        }
    }

    /**
     * StableCov_{lambda0,k} on paired rows (see the class comment).
     *
     * @param pairs the paired differences (m &gt;= 1 rows)
     * @param lambda0 &gt;= 1
     * @param k &gt;= 1
     * @param engine the caller's engine (Cholesky factors)
     * @return the score and weights
     */
    public static Cov stableCov(RowSource pairs, double lambda0, int k, ComputeEngine engine) {
        StableCov.of(lambda0, k); // validates
        Objects.requireNonNull(engine, "engine");
        long mm = pairs.rows();
        if (mm < 1) {
            throw new IllegalArgumentException("StableCov needs m >= 1 pairs, got 0");
        }
        double m = mm;
        double[] lambdas = StableCov.thresholds(lambda0, k);
        long[] removed = new long[0];
        int[] level = new int[0];
        int collapsedAt = -1;
        long active = mm;
        RowLayout layout = pairs.layout();
        boolean single = layout.blockCount(mm) == 1;
        Round first = round(pairs, removed, null, 0, 0, m, single, null);
        DMatrixRMaj gram = first.gram;
        double[] colTop = first.colTop; // per coordinate the 4 largest |y| of the active rows
        DMatrixRMaj lower = null; // the factor of gram, once computed
        double[] known = null; // norms above lambda_0 of the current set with the current factor (sorted)
        int best = k;
        for (int l = 2 * k; l >= 0; l--) {
            while (active > 0 && collapsedAt < 0) {
                if (known != null && (known.length == 0 || known[known.length - 1] <= lambdas[l])) {
                    break; // the set's norms are known and none exceeds lambda_l: nothing leaves, no pass
                }
                if (lower == null && mayDominate(gram, maxOf(colTop), lambdas[l])) {
                    // certified violators at lambda_l leave before A_S is factored (cpu.CertifiedViolators)
                    Round pf = certifiedViolators(pairs, removed, maxOf(colTop), lambdas[l], m, single);
                    if (pf != null && pf.removed.length > 0) {
                        long[] merged = new long[removed.length + pf.removed.length];
                        int[] levels = new int[merged.length];
                        merge(removed, level, pf.removed, l, merged, levels);
                        removed = merged;
                        level = levels;
                        active -= pf.removed.length;
                        gram = pf.gram;
                        colTop = pf.colTop;
                        known = null;
                        continue;
                    }
                }
                if (lower == null && lambdas[l] > 0.24 * m && mayBeSwamped(gram, colTop, m)) {
                    // four rows may hold nearly all of a coordinate's total and stay (each at most lambda/m of it,
                    // so lambda > m/4: small m only, the pairs fit on this machine): the in-memory production
                    // version, which runs such a set in a rotated basis (cpu.DominantRows)
                    return inMemory(pairs, lambda0, k, engine);
                }
                if (lower == null) {
                    CholeskyResult chol = engine.cholesky(gram);
                    if (!chol.isPositiveDefinite()) {
                        collapsedAt = l; // A_S singular: every active row leaves (§3.3)
                        active = 0;
                        break;
                    }
                    lower = chol.lower();
                }
                Round round = round(pairs, removed, lower, lambdas[l], lambdas[0], m, single, null);
                if (round.removed.length == 0) {
                    known = round.above;
                    Arrays.sort(known);
                    break;
                }
                long[] merged = new long[removed.length + round.removed.length];
                int[] levels = new int[merged.length];
                merge(removed, level, round.removed, l, merged, levels);
                removed = merged;
                level = levels;
                active -= round.removed.length;
                gram = round.gram;
                colTop = round.colTop;
                lower = null;
                known = null;
            }
            long size = active;
            if (l <= k) {
                best = (int) Math.min(best, mm - size + l);
            }
            if (l > 0 && l <= k + 1 && best <= mm - size) {
                break; // the early stop of StableCov#apply (§7)
            }
        }
        return new Cov(pairs, k, best, removed, level, collapsedAt);
    }

    /**
     * One canonical round: the norms of the active rows with the factor of their Gram, the rows above lambda, the
     * norms above {@code floor} (which answer the lower thresholds while the set does not change) and the Gram of
     * the rows that stay.
     */
    private static final class Round implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        long[] removed;
        double[] above;
        DMatrixRMaj gram;
        /** Per coordinate the 4 largest |y| of the rows that stay ({@code [j * 4 + t]}, descending). */
        double[] colTop;

        Round(long[] removed, double[] above, DMatrixRMaj gram, double[] colTop) {
            this.removed = removed;
            this.above = above;
            this.gram = gram;
            this.colTop = colTop;
        }
    }

    /** The per-coordinate largest magnitudes from the top lists. */
    private static double[] maxOf(double[] colTop) {
        int k = CertifiedViolators.Columns.TOP;
        double[] max = new double[colTop.length / k];
        for (int j = 0; j < max.length; j++) {
            max[j] = colTop[j * k];
        }
        return max;
    }

    /**
     * Whether a row of the active set may hold more than lambda/m of a coordinate's total (a certified violator,
     * cpu.CertifiedViolators): {@code max_i y_ij^2 > lambda a_jj} for some j, checked loosely (a factor 1e-3) so
     * that no certified violator is missed, or a diagonal entry that overflowed or underflowed. False: no pass needed.
     */
    private static boolean mayDominate(DMatrixRMaj gram, double[] colMax, double lambda) {
        for (int j = 0; j < colMax.length; j++) {
            double c = colMax[j];
            if (c > 0) {
                double a = gram.unsafe_get(j, j);
                if (!Double.isFinite(a) || !(c <= Math.sqrt(lambda * a * (1 - 1e-3)))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the set may be swamped (cpu.DominantRows): the 4 largest entries of some coordinate hold more than
     * {@code 1 - 2 SWAMP} of its sum of squares {@code m a_jj} (looser than DominantRows' own test), or a diagonal
     * entry that overflowed or underflowed.
     */
    private static boolean mayBeSwamped(DMatrixRMaj gram, double[] colTop, double m) {
        int k = CertifiedViolators.Columns.TOP;
        for (int j = 0; j < colTop.length / k; j++) {
            if (colTop[j * k] > 0) {
                double a = gram.unsafe_get(j, j);
                if (!Double.isFinite(a)) {
                    return true;
                }
                double den = Math.sqrt(m) * Math.sqrt(a);
                double t = 0;
                for (int u = 0; u < k; u++) {
                    double r = colTop[j * k + u] / den; // no overflow
                    t += r * r;
                }
                if (!(t <= 1 - 2 * DominantRows.SWAMP)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * StableCov on the pairs collected on this machine (the production version, StableCov#applyToPairs), expressed
     * as removal levels: a row in {@code c} of the k weight sets is recorded as removed at level {@code 2k - c}.
     */
    private static Cov inMemory(RowSource pairs, double lambda0, int k, ComputeEngine engine) {
        RowLayout layout = pairs.layout();
        int d = pairs.cols();
        java.util.TreeMap<Long, double[]> blocks = pairs.reduce((b, rows, e) -> {
            java.util.TreeMap<Long, double[]> t = new java.util.TreeMap<>();
            double[] data = new double[rows.rows() * d];
            for (int i = 0; i < rows.rows(); i++) {
                rows.copyRow(i, data, i * d);
            }
            t.put(layout.blockStart(b), data);
            return t;
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            acc.putAll(p);
            return acc;
        });
        int m = Math.toIntExact(pairs.rows());
        double[][] y = new double[m][d];
        for (java.util.Map.Entry<Long, double[]> en : blocks.entrySet()) {
            int start = Math.toIntExact(en.getKey());
            double[] data = en.getValue();
            for (int i = 0; i < data.length / d; i++) {
                System.arraycopy(data, i * d, y[start + i], 0, d);
            }
        }
        StableCovResult r = StableCov.of(lambda0, k).applyToPairs(RowBlockMatrix.of(y), engine);
        double[] w = r.weights();
        List<Long> removed = new ArrayList<>();
        List<Integer> level = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            long c = Math.round(w[i] * k * (double) m);
            if (c < k) {
                removed.add((long) i);
                level.add((int) (2L * k - c));
            }
        }
        return new Cov(pairs, k, r.score(), removed.stream().mapToLong(Long::longValue).toArray(),
                level.stream().mapToInt(Integer::intValue).toArray(), -1);
    }

    /**
     * The certified violators of the active set at lambda (cpu.CertifiedViolators) in two passes: the scaled
     * squares per coordinate, then (only if some row can qualify) the rows that leave with the Gram and scales of
     * the rows that stay. Null when no row qualifies.
     */
    private static Round certifiedViolators(RowSource y, long[] removed, double[] colMax, double lambda, double m,
            boolean single) {
        RowLayout layout = y.layout();
        double[] squares = y.reduce((b, rows, e) -> {
            int[] activeLocal = activeIn(removed, layout.blockStart(b), rows.rows());
            return CertifiedViolators.scaledSquares(rows, activeLocal, colMax);
        }, StableRows::add);
        CertifiedViolators.Columns c = CertifiedViolators.Columns.of(colMax, squares);
        if (!c.anyPossible(lambda, m)) {
            return null;
        }
        return round(y, removed, null, lambda, 0, m, single, c);
    }

    /**
     * A pass: with {@code lower} null only the Gram of the active rows, else the canonical round's removals too;
     * with {@code pre} (and lower null) the certified violators at lambda leave instead.
     */
    private static Round round(RowSource y, long[] removed, DMatrixRMaj lower, double lambda, double floor, double m,
            boolean single, CertifiedViolators.Columns pre) {
        RowLayout layout = y.layout();
        int d = y.cols();
        double divisor = single ? m : 1.0;
        Round r = y.reduce((b, rows, e) -> {
            long start = layout.blockStart(b);
            int[] activeLocal = activeIn(removed, start, rows.rows());
            List<Long> out = new ArrayList<>();
            List<Double> above = new ArrayList<>();
            int[] stay = activeLocal;
            if (lower != null && activeLocal.length > 0) {
                double[] q = e.mahalanobisNorms(rows, lower, activeLocal);
                int kept = 0;
                int[] s = new int[activeLocal.length];
                for (int t = 0; t < activeLocal.length; t++) {
                    if (q[t] > floor) {
                        above.add(q[t]);
                    }
                    if (q[t] > lambda) {
                        out.add(start + activeLocal[t]);
                    } else {
                        s[kept++] = activeLocal[t];
                    }
                }
                stay = Arrays.copyOf(s, kept);
            } else if (pre != null && activeLocal.length > 0) {
                double[] row = new double[d];
                int kept = 0;
                int[] s = new int[activeLocal.length];
                for (int t = 0; t < activeLocal.length; t++) {
                    rows.copyRow(activeLocal[t], row, 0);
                    if (pre.isViolator(row, 0, lambda, m)) {
                        out.add(start + activeLocal[t]);
                    } else {
                        s[kept++] = activeLocal[t];
                    }
                }
                stay = Arrays.copyOf(s, kept);
            }
            DMatrixRMaj g = stay.length == 0 ? new DMatrixRMaj(d, d) : e.weightedGram(rows, stay, null, divisor);
            return new Round(out.stream().mapToLong(Long::longValue).toArray(),
                    above.stream().mapToDouble(Double::doubleValue).toArray(), g,
                    CertifiedViolators.columnTop(rows, stay));
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            long[] both = Arrays.copyOf(acc.removed, acc.removed.length + p.removed.length);
            System.arraycopy(p.removed, 0, both, acc.removed.length, p.removed.length);
            acc.removed = both;
            double[] q = Arrays.copyOf(acc.above, acc.above.length + p.above.length);
            System.arraycopy(p.above, 0, q, acc.above.length, p.above.length);
            acc.above = q;
            acc.gram = RowSource.fold(acc.gram, p.gram);
            int k = CertifiedViolators.Columns.TOP;
            for (int t = 0; t < p.colTop.length; t++) {
                CertifiedViolators.insertTop(acc.colTop, (t / k) * k, p.colTop[t]);
            }
            return acc;
        });
        if (!single) {
            RowSource.scaleGram(r.gram, m);
        }
        return r;
    }

    /** Local indices of the rows of a block not in {@code removed} (sorted positions). */
    private static int[] activeIn(long[] removed, long start, int rows) {
        int from = lowerBound(removed, start);
        int to = lowerBound(removed, start + rows);
        int[] out = new int[rows - (to - from)];
        int k = 0;
        int r = from;
        for (int i = 0; i < rows; i++) {
            if (r < to && removed[r] == start + i) {
                r++;
            } else {
                out[k++] = i;
            }
        }
        return out;
    }

    private static int lowerBound(long[] a, long v) {
        int i = Arrays.binarySearch(a, v);
        return i >= 0 ? i : -i - 1;
    }

    private static void merge(long[] a, int[] la, long[] b, int lb, long[] out, int[] lout) {
        long[] bs = b.clone();
        Arrays.sort(bs);
        int i = 0;
        int j = 0;
        for (int t = 0; t < out.length; t++) {
            if (j >= bs.length || (i < a.length && a[i] < bs[j])) {
                out[t] = a[i];
                lout[t] = la[i++];
            } else {
                out[t] = bs[j++];
                lout[t] = lb;
            }
        }
    }

    static double[] add(double[] acc, double[] p) {
        if (acc == null) {
            return p;
        }
        for (int j = 0; j < acc.length; j++) {
            acc[j] += p[j];
        }
        return acc;
    }

    /** StableMean's outcome: the score and the weighted mean {@code mu-hat = sum_i v_i X_i}. */
    public static final class Mean {
        private final int score;
        private final double[] mean;

        private Mean(int score, double[] mean) {
            this.score = score;
            this.mean = mean;
        }

        /** @return Score in {0..k} */
        public int score() {
            return score;
        }

        /** @return mu-hat (a copy) */
        public double[] weightedMean() {
            return mean.clone();
        }
    }

    /**
     * StableMean_{Sigma-hat,lambda0,k,R} and its weighted mean: one pass collects the whitened reference rows, one
     * counts the cores (|S_l| and the weights' total), one forms the weighted mean (recomputing each row's
     * distances rather than keeping them).
     *
     * @param x the rows (n &gt;= 1)
     * @param sigmaHat Sigma-hat (singular: every distance is +infinity, §3.5)
     * @param reference R: distinct, increasing 0-based positions
     * @param lambda0 &gt;= 1
     * @param k &gt;= 1
     * @param engine the caller's engine (the Cholesky factor)
     * @return the score and weighted mean
     */
    public static Mean stableMean(RowSource x, DMatrixRMaj sigmaHat, int[] reference, double lambda0, int k,
            ComputeEngine engine) {
        StableMean.of(lambda0, k); // validates
        Objects.requireNonNull(sigmaHat, "Sigma-hat");
        int d = x.cols();
        int size = reference.length;
        if (size == 0) {
            throw new IllegalArgumentException("reference set R is empty; need |R| >= 1");
        }
        for (int j = 0; j < size; j++) {
            if (reference[j] < 0 || reference[j] >= x.rows() || (j > 0 && reference[j] <= reference[j - 1])) {
                throw new IllegalArgumentException("reference positions must be increasing and in [0, n)");
            }
        }
        CholeskyResult chol = engine.cholesky(sigmaHat);
        boolean singular = !chol.isPositiveDefinite();
        // as LargestCore#compute: a singular Sigma-hat still runs the distances (stand-in identity factor)
        DMatrixRMaj lower = singular ? org.ejml.dense.row.CommonOps_DDRM.identity(d) : chol.lower();
        RowLayout layout = x.layout();
        double[] ref = x.reduce((b, rows, e) -> {
            long start = layout.blockStart(b);
            int from = lowerBound(reference, start);
            int to = lowerBound(reference, start + rows.rows());
            if (from == to) {
                return new double[0];
            }
            RowBlockMatrix white = e.whiten(rows, lower);
            double[] out = new double[(to - from) * d];
            for (int j = from; j < to; j++) {
                white.copyRow((int) (reference[j] - start), out, (j - from) * d);
            }
            return out;
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            double[] both = Arrays.copyOf(acc, acc.length + p.length);
            System.arraycopy(p, 0, both, acc.length, p.length);
            return both;
        });
        int keep = Math.min(2 * k + 1, size);
        double[] lambdas = StableCov.thresholds(lambda0, k);
        Cores cores = new Cores(ref, size, d, keep, lower, singular, lambdas, k);
        long[] counts = x.reduce((b, rows, e) -> cores.counts(rows, e), (acc, p) -> {
            if (acc == null) {
                return p;
            }
            for (int t = 0; t < acc.length; t++) {
                acc[t] += p[t];
            }
            return acc;
        });
        long n = x.rows();
        int score = k;
        for (int l = 0; l <= k; l++) {
            score = (int) Math.min(score, n - counts[l] + l); // §3.4 line 2
        }
        long zsum = counts[2 * k + 1];
        double[] mean = x.reduce((b, rows, e) -> {
            double[] mu = new double[d];
            if (zsum == 0) {
                return mu; // v = 0 when Zsum = 0 (A's Algorithm 5 line 5)
            }
            int[] c = cores.weights(rows, e);
            double[] row = new double[d];
            for (int i = 0; i < c.length; i++) {
                double v = c[i] / (double) zsum;
                if (v == 0) {
                    continue;
                }
                rows.copyRow(i, row, 0);
                for (int j = 0; j < d; j++) {
                    mu[j] += v * row[j];
                }
            }
            return mu;
        }, StableRows::add);
        return new Mean(score, mean);
    }

    /** The LargestCore memberships of a block's rows at StableMean's 2k+1 thresholds. */
    private static final class Cores implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final double[] ref;
        private final int size;
        private final int d;
        private final int keep;
        private final DMatrixRMaj lower;
        private final boolean singular;
        private final double[] lambdas;
        private final int k;

        Cores(double[] ref, int size, int d, int keep, DMatrixRMaj lower, boolean singular, double[] lambdas, int k) {
            this.ref = ref;
            this.size = size;
            this.d = d;
            this.keep = keep;
            this.lower = lower;
            this.singular = singular;
            this.lambdas = lambdas;
            this.k = k;
        }

        private RowBlockMatrix largest(RowBlockMatrix rows, ComputeEngine e) {
            RowBlockMatrix white = e.whiten(rows, lower);
            RowBlockMatrix r = RowBlockMatrix.zeros(size, d);
            double[] row = new double[d];
            for (int j = 0; j < size; j++) {
                System.arraycopy(ref, j * d, row, 0, d);
                r.setRow(j, row);
            }
            RowBlockMatrix largest = e.largestReferenceDistances(white, r, keep);
            return singular ? null : largest;
        }

        /** |S_l| for l = 0..2k, then Zsum = sum_i c_i. */
        long[] counts(RowBlockMatrix rows, ComputeEngine e) {
            RowBlockMatrix largest = largest(rows, e);
            long[] out = new long[2 * k + 2];
            for (int i = 0; i < rows.rows(); i++) {
                for (int l = 0; l <= 2 * k; l++) {
                    if (LargestCore.contains(largest, keep, size, i, lambdas[l], size - l)) {
                        out[l]++;
                        if (l > k) {
                            out[2 * k + 1]++;
                        }
                    }
                }
            }
            return out;
        }

        /** c_i = #{l in k+1..2k : i in S_l}. */
        int[] weights(RowBlockMatrix rows, ComputeEngine e) {
            RowBlockMatrix largest = largest(rows, e);
            int[] c = new int[rows.rows()];
            for (int i = 0; i < c.length; i++) {
                for (int l = k + 1; l <= 2 * k; l++) {
                    if (LargestCore.contains(largest, keep, size, i, lambdas[l], size - l)) {
                        c[i]++;
                    }
                }
            }
            return c;
        }
    }

    private static int lowerBound(int[] a, long v) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
