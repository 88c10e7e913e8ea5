package org.dpgauss.cpu;

import java.util.stream.IntStream;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Neighbour counts within a radius for all rows, {@code c_i = #{k : ||x_i - x_k||_2 <= radius}} with
 * {@code k = i} included (BasicFilter, spec anisotropic-mean-estimation §3.1 and §8).
 *
 * <p>Tiled over the upper triangle of the n x n pair matrix (never materialised): for each pair of row
 * tiles a GEMM of centred rows gives {@code |x_i|^2 + |x_k|^2 - 2 x_i.x_k}; pairs whose value lies within
 * {@code 1e-9 (|x_i|^2 + |x_k|^2)} of {@code radius^2} are recomputed directly so the predicate is exact
 * up to the rounding of a direct sum (spec §8 [R]).
 */
public final class NeighbourCounts {

    static final int TILE = 256;
    static final double BOUNDARY_RELATIVE = 1e-9;

    private NeighbourCounts() {
    }

    public static int[] count(RowBlockMatrix x, double radius) {
        Checks.notEmpty(x, "data matrix");
        Checks.radius(radius);
        int n = x.rows();
        double r2 = radius * radius;
        double[] mu = x.columnMeans();
        int tiles = (n + TILE - 1) / TILE;
        // Work units: tile pairs (ti <= tj), a count fixed by n before the loop.
        try (org.dpgauss.progress.Progress.Tracker progress = org.dpgauss.progress.Progress.track(
                "neighbour counts", (long) tiles * (tiles + 1) / 2)) {
            // Interleave heavy (small I) and light (large I) tile rows so any contiguous range has balanced work.
            return IntStream.range(0, tiles).parallel()
                    .map(t -> (t % 2 == 0) ? t / 2 : tiles - 1 - t / 2)
                    .collect(() -> new int[n], (counts, ti) -> {
                        countTileRow(x, mu, r2, ti, tiles, counts);
                        progress.advance(tiles - ti);
                    }, (a, b) -> {
                            for (int i = 0; i < n; i++) {
                                a[i] += b[i];
                            }
                        });
        }
    }

    private static void countTileRow(RowBlockMatrix x, double[] mu, double r2, int ti, int tiles, int[] counts) {
        int n = x.rows();
        int d = x.cols();
        int iFrom = ti * TILE;
        int iTo = Math.min(n, iFrom + TILE);
        double[] iNorm = new double[iTo - iFrom];
        DMatrixRMaj xi = centred(x, iFrom, iTo, mu, iNorm);
        double[] jNorm = new double[TILE];
        DMatrixRMaj g = new DMatrixRMaj(TILE, TILE);
        DMatrixRMaj jBuffer = null;
        double[] a = new double[d];
        double[] b = new double[d];
        for (int tj = ti; tj < tiles; tj++) {
            int jFrom = tj * TILE;
            int jTo = Math.min(n, jFrom + TILE);
            DMatrixRMaj xj;
            if (tj == ti) {
                xj = xi;
            } else {
                jBuffer = centredInto(x, jFrom, jTo, mu, jNorm, jBuffer);
                xj = jBuffer;
            }
            double[] jn = tj == ti ? iNorm : jNorm;
            g.reshape(iTo - iFrom, jTo - jFrom, false);
            CommonOps_DDRM.multTransB(xi, xj, g);
            int cols = jTo - jFrom;
            for (int p = 0; p < iTo - iFrom; p++) {
                int i = iFrom + p;
                int qStart = tj == ti ? p : 0;
                for (int q = qStart; q < cols; q++) {
                    int k = jFrom + q;
                    double dist = iNorm[p] + jn[q] - 2.0 * g.data[p * cols + q];
                    boolean within;
                    if (Math.abs(dist - r2) <= BOUNDARY_RELATIVE * (iNorm[p] + jn[q])) {
                        x.copyRow(i, a, 0);
                        x.copyRow(k, b, 0);
                        double e = 0;
                        for (int c = 0; c < d; c++) {
                            double v = a[c] - b[c];
                            e += v * v;
                        }
                        within = e <= r2;
                    } else {
                        within = dist <= r2;
                    }
                    if (i == k) {
                        counts[i]++;
                    } else if (within) {
                        counts[i]++;
                        counts[k]++;
                    }
                }
            }
        }
    }

    private static DMatrixRMaj centred(RowBlockMatrix x, int from, int to, double[] mu, double[] norms) {
        return centredInto(x, from, to, mu, norms, null);
    }

    private static DMatrixRMaj centredInto(RowBlockMatrix x, int from, int to, double[] mu, double[] norms,
            DMatrixRMaj reuse) {
        DMatrixRMaj m = RowChunks.gatherRange(x, from, to, reuse);
        RowChunks.centre(m, mu, norms);
        return m;
    }
}
