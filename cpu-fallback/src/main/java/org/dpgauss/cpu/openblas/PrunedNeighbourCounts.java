package org.dpgauss.cpu.openblas;

import java.util.Arrays;
import org.dpgauss.cpu.Checks;
import org.dpgauss.cpu.NeighbourCounts;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Neighbour counts {@code c_i = #{k : ||x_i - x_k|| <= radius}} (self included) without the n^2 wall where the
 * geometry allows it, with exactly the counts of the tiled kernel {@link NeighbourCounts} (issue 16 item 3).
 *
 * <p>With a centre {@code c} (the column means) and {@code rho_i = ||x_i - c||}, the triangle inequality gives
 * {@code |rho_i - rho_k| <= ||x_i - x_k|| <= rho_i + rho_k}. So a pair is surely within the radius when
 * {@code rho_i + rho_k <= r (1 - slack)} and surely outside when {@code |rho_i - rho_k| > r (1 + slack)}; with the
 * rows sorted by {@code rho}, the sure neighbours of every row are counted by one binary search. Only the pairs in
 * between (the "uncertain band") need a distance, computed directly as {@code sum_j (x_ij - x_kj)^2 <= r^2}, the
 * same expression, on the same uncentred rows and in the same order, that the tiled kernel uses near the boundary.
 *
 * <p>Why the counts are identical: {@code slack = 1e-9} exceeds the relative rounding error of {@code rho} (about
 * {@code d * 2^-53}) by orders of magnitude, so a pair decided by the bounds is decided the same way by the exact
 * distance, hence by the tiled kernel (which agrees with the exact distance outside its 1e-9 boundary window and
 * evaluates the direct sum inside it); a pair in the band gets the kernel's own direct sum, which away from the
 * boundary also agrees with the exact distance. Tested against the kernel on data where the band is empty, where
 * it is everything, and in between (OpenBlasNeighbourCountsTest).
 *
 * <p>When the band holds more than {@value #MAX_BAND_FRACTION} of all pairs (e.g. high dimension, where distances
 * concentrate and {@code rho_i + rho_k} exceeds typical radii), direct sums would be slower than GEMM tiles, and
 * the tiled kernel runs instead ({@link OpenBlasPrimitives#neighbourCounts}: dgemm tiles with the same boundary
 * rule as {@link NeighbourCounts}). The anisotropic mean's radius {@code lambda* = sqrt(2 tr A) + 2 sqrt(2 ||A|| log(n/beta))}
 * puts most pairs of inliers in the sure set at d = 100.
 *
 * <p>Pure Java (no BLAS call): the sure counts cost {@code O(n log n)} on one thread, the band its pairs times d, in
 * the fixed work groups of {@link OpenBlasPrimitives} (parallel under the default thread policy).
 */
public final class PrunedNeighbourCounts {

    static final double SLACK = 1e-9;
    static final double MAX_BAND_FRACTION = 0.125;
    /** Below this radius (including 0) the tiled kernel decides: squared differences there may underflow. */
    static final double MIN_RADIUS = 1e-140;

    private PrunedNeighbourCounts() {
    }

    /** The counts, identical to {@link NeighbourCounts#count} (the EJML tiled kernel, the reference). */
    public static int[] count(RowBlockMatrix x, double radius) {
        return count(x, radius, MAX_BAND_FRACTION, null);
    }

    /**
     * @param maxBandFraction above this fraction of all pairs in the band, the dgemm tiled kernel runs instead
     * @param band            if not null, receives the number of band pairs ({@code band[0]}) and whether the
     *                        tiled kernel ran ({@code band[1]} = 1)
     */
    static int[] count(RowBlockMatrix x, double radius, double maxBandFraction, long[] band) {
        int[] c = countOrNull(x, radius, maxBandFraction, band);
        if (c == null) {
            if (band != null) {
                band[1] = 1;
            }
            return OpenBlasPrimitives.neighbourCounts(x, radius);
        }
        return c;
    }

    private static int[] countOrNull(RowBlockMatrix x, double radius, double maxBandFraction, long[] bandOut) {
        Checks.notEmpty(x, "data matrix");
        Checks.radius(radius);
        if (radius < MIN_RADIUS) {
            return null; // squares of such differences underflow: the rounding bound on rho no longer holds
        }
        int n = x.rows();
        int d = x.cols();
        double[] mu = x.columnMeans();
        double[] rho = new double[n];
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            double s = 0;
            for (int j = 0; j < d; j++) {
                double v = row[j] - mu[j];
                s += v * v;
            }
            rho[i] = Math.sqrt(s);
        }
        for (double v : rho) {
            if (!Double.isFinite(v)) {
                return null; // no bounds for non-finite rows: the tiled kernel decides
            }
        }
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (p, q) -> Double.compare(rho[p], rho[q]));
        int[] order = new int[n];
        double[] sorted = new double[n];
        for (int p = 0; p < n; p++) {
            order[p] = boxed[p];
            sorted[p] = rho[order[p]];
        }
        double inner = radius * (1 - SLACK);
        double outer = radius * (1 + SLACK);
        // band of position p: positions q > p with fl(sorted[p] + sorted[q]) > inner (not surely in) and
        // sorted[q] < sorted[p] + outer (not surely out)
        int[] bandFrom = new int[n];
        int[] bandTo = new int[n];
        long band = 0;
        for (int p = 0; p < n; p++) {
            int from = Math.max(p + 1, sureEnd(sorted, p, inner));
            int to = upperBound(sorted, sorted[p] + outer); // surely out only when strictly beyond
            bandFrom[p] = from;
            bandTo[p] = Math.max(from, to);
            band += bandTo[p] - from;
        }
        long pairs = (long) n * (n - 1) / 2;
        if (bandOut != null) {
            bandOut[0] = band;
        }
        if (band > maxBandFraction * pairs) {
            return null;
        }
        int[] counts = new int[n];
        for (int p = 0; p < n; p++) {
            // sure neighbours: fl(sorted[p] + sorted[q]) <= inner, self excluded, plus self. The test is symmetric in
            // p and q (floating-point addition commutes), so the band below and these counts never overlap.
            int sure = sureEnd(sorted, p, inner);
            if (sorted[p] + sorted[p] <= inner) {
                sure--; // p itself lies in that prefix
            }
            counts[order[p]] += sure + 1;
        }
        double r2 = radius * radius;
        // the band, in fixed interleaved groups of positions (run in parallel when OpenBLAS is single-threaded;
        // integer counts, so the order of the additions does not matter)
        int groups = (int) Math.max(1, Math.min(OpenBlasPrimitives.GROUPS, band / 4096));
        int[][] partial = new int[groups][];
        // progress in row positions (n, fixed before the loop), reported every 1024 positions per group
        org.dpgauss.progress.Progress.Tracker progress = org.dpgauss.progress.Progress.track("neighbour counts", n);
        OpenBlasPrimitives.forEachGroup(groups, grp -> {
            int[] local = new int[n];
            double[] a = new double[d];
            double[] b = new double[d];
            int step = 0;
            for (int p = grp; p < n; p += groups) {
                if (++step % 1024 == 0) {
                    progress.advance(1024);
                }
                if (bandFrom[p] >= bandTo[p]) {
                    continue;
                }
                int i = order[p];
                x.copyRow(i, a, 0);
                for (int q = bandFrom[p]; q < bandTo[p]; q++) {
                    int k = order[q];
                    x.copyRow(k, b, 0);
                    double e = 0;
                    for (int c = 0; c < d; c++) {
                        double v = a[c] - b[c];
                        e += v * v;
                    }
                    if (e <= r2) {
                        local[i]++;
                        local[k]++;
                    }
                }
            }
            partial[grp] = local;
        });
        progress.close();
        for (int[] local : partial) {
            for (int i = 0; i < n; i++) {
                counts[i] += local[i];
            }
        }
        return counts;
    }

    /** First position q with {@code fl(v[p] + v[q]) > inner} (n when none); v ascending, so the test is monotone. */
    static int sureEnd(double[] v, int p, double inner) {
        double vp = v[p];
        int lo = 0;
        int hi = v.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (vp + v[mid] <= inner) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First position with {@code v[pos] > key} (n when none). */
    static int upperBound(double[] v, double key) {
        int lo = 0;
        int hi = v.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (v[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
