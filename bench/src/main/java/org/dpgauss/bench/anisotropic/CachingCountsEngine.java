package org.dpgauss.bench.anisotropic;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.random.CounterBasedGenerator;
import org.ejml.data.DMatrixRMaj;

/**
 * A benchmark-only engine that memoises {@link ComputeEngine#neighbourCounts}: the counts are a deterministic
 * function of the (whitened) rows and the radius, so when Algorithm 1 runs again on the same rows with the same
 * lambda (the same dataset at another epsilon: lambda of spec §3.2 does not depend on epsilon) the cached counts
 * are exactly what a fresh computation would return. The noise (Bernoulli filter draws, Laplace count, Gaussian
 * mean) is drawn afresh by the caller every time, so each release keeps its own output distribution.
 *
 * <p>The key is (rows, cols, radius bits, two independent 64-bit hashes of every entry's bits); {@link #clear()}
 * drops the cache (call it when the dataset changes). A miss first tries the exact triangle-inequality shortcut
 * {@link #allWithinHalfRadius} (counted in {@link #shortcuts()}), else the engine computes the counts (timed per
 * shape in {@link #missSeconds()}).
 */
final class CachingCountsEngine implements ComputeEngine {

    private final ComputeEngine delegate;
    private final Map<String, int[]> cache = new HashMap<>();
    private final Map<String, double[]> missSeconds = new LinkedHashMap<>(); // "n x d" -> {count, total seconds}
    private long hits;
    private long misses;
    private long shortcuts;

    CachingCountsEngine(ComputeEngine delegate) {
        this.delegate = delegate;
    }

    void clear() {
        cache.clear();
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }

    /** Per shape {@code "rows x cols"}: number of computed (missed) count calls and their total seconds. */
    Map<String, double[]> missSeconds() {
        return missSeconds;
    }

    @Override
    public int[] neighbourCounts(RowBlockMatrix x, double radius) {
        long h1 = 0xcbf29ce484222325L;
        long h2 = 0x9E3779B97F4A7C15L;
        for (int b = 0; b < x.blockCount(); b++) {
            double[] block = x.block(b);
            int len = x.blockRowCount(b) * x.cols();
            for (int k = 0; k < len; k++) {
                long v = Double.doubleToLongBits(block[k]);
                h1 = (h1 ^ v) * 0x100000001b3L;
                h2 = Long.rotateLeft(h2 + v * 0xC2B2AE3D27D4EB4FL, 31) * 0x9E3779B97F4A7C15L;
            }
        }
        String key = x.rows() + "x" + x.cols() + ":" + Double.doubleToLongBits(radius) + ":" + h1 + ":" + h2;
        int[] cached = cache.get(key);
        if (cached != null) {
            hits++;
            return cached.clone();
        }
        long t0 = System.nanoTime();
        if (allWithinHalfRadius(x, radius)) {
            misses++;
            shortcuts++;
            int[] all = new int[x.rows()];
            java.util.Arrays.fill(all, x.rows());
            if (Boolean.getBoolean("anisotropic.verifyShortcut")
                    && !java.util.Arrays.equals(all, delegate.neighbourCounts(x, radius))) {
                throw new IllegalStateException("all-pass shortcut disagrees with the engine at radius " + radius);
            }
            cache.put(key, all.clone());
            return all;
        }
        if (x.rows() > Integer.getInteger("anisotropic.maxEngineRows", Integer.MAX_VALUE)) {
            throw new IllegalStateException("exact neighbour count on " + x.rows() + " rows not attempted (above "
                    + "-Danisotropic.maxEngineRows; the all-pass shortcut did not apply)");
        }
        int[] counts = delegate.neighbourCounts(x, radius);
        double s = (System.nanoTime() - t0) * 1e-9;
        misses++;
        double[] acc = missSeconds.computeIfAbsent(x.rows() + " x " + x.cols(), k -> new double[2]);
        acc[0]++;
        acc[1] += s;
        cache.put(key, counts.clone());
        return counts;
    }

    /**
     * Exact shortcut (spec §8 [R] "once all rows are known to pass, nothing more is needed"): if every row lies
     * within {@code radius/2} of the column mean c, then {@code ||y_i - y_k|| <= ||y_i - c|| + ||y_k - c|| <= radius}
     * for every pair, so every count is n, exactly what the engine would return. A relative margin of 1e-9 (the
     * engine's own boundary tolerance) keeps rounding in the norms from deciding a borderline case; otherwise the
     * engine computes the counts. O(n d) instead of O(n^2 d).
     */
    static boolean allWithinHalfRadius(RowBlockMatrix x, double radius) {
        double[] c = x.columnMeans();
        double limit = 0.5 * radius * (1 - 1e-9);
        double limit2 = limit * limit;
        int d = x.cols();
        for (int b = 0; b < x.blockCount(); b++) {
            double[] block = x.block(b);
            int rows = x.blockRowCount(b);
            for (int r = 0; r < rows; r++) {
                double s = 0;
                for (int j = 0; j < d; j++) {
                    double t = block[r * d + j] - c[j];
                    s += t * t;
                }
                if (!(s * (1 + 1e-12) <= limit2)) {
                    return false;
                }
            }
        }
        return true;
    }

    long shortcuts() {
        return shortcuts;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public String description() {
        return delegate.description() + " (neighbour counts memoised per dataset and radius)";
    }

    @Override
    public DMatrixRMaj weightedGram(RowBlockMatrix y, int[] rows, double[] weights, double divisor) {
        return delegate.weightedGram(y, rows, weights, divisor);
    }

    @Override
    public CholeskyResult cholesky(DMatrixRMaj a) {
        return delegate.cholesky(a);
    }

    @Override
    public DMatrixRMaj solveLower(DMatrixRMaj lower, DMatrixRMaj b) {
        return delegate.solveLower(lower, b);
    }

    @Override
    public DMatrixRMaj solveLowerTranspose(DMatrixRMaj lower, DMatrixRMaj b) {
        return delegate.solveLowerTranspose(lower, b);
    }

    @Override
    public double[] mahalanobisNorms(RowBlockMatrix x, DMatrixRMaj lower, int[] rows) {
        return delegate.mahalanobisNorms(x, lower, rows);
    }

    @Override
    public RowBlockMatrix whiten(RowBlockMatrix x, DMatrixRMaj lower) {
        return delegate.whiten(x, lower);
    }

    @Override
    public RowBlockMatrix multiplyRows(RowBlockMatrix x, DMatrixRMaj b) {
        return delegate.multiplyRows(x, b);
    }

    @Override
    public RowBlockMatrix largestReferenceDistances(RowBlockMatrix x, RowBlockMatrix reference, int keep) {
        return delegate.largestReferenceDistances(x, reference, keep);
    }

    @Override
    public DMatrixRMaj gaussianProjection(RowBlockMatrix data, int r, CounterBasedGenerator generator,
            long firstIndex) {
        return delegate.gaussianProjection(data, r, generator, firstIndex);
    }

    @Override
    public SymmetricEigen symmetricEigen(DMatrixRMaj a) {
        return delegate.symmetricEigen(a);
    }

    @Override
    public DMatrixRMaj multiply(DMatrixRMaj a, boolean transA, DMatrixRMaj b, boolean transB) {
        return delegate.multiply(a, transA, b, transB);
    }

    @Override
    public GoodSubset largestGoodSubset(RowBlockMatrix y, double lambda, boolean[] start, double divisor) {
        return delegate.largestGoodSubset(y, lambda, start, divisor);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
