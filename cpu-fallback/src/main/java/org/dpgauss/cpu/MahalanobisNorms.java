package org.dpgauss.cpu;

import java.util.stream.IntStream;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * Squared Mahalanobis norms {@code q_i = y_i^T (L L^T)^{-1} y_i = ||L^{-1} y_i||^2} of rows, by one
 * forward substitution per row (no inverse is formed).
 */
public final class MahalanobisNorms {

    private MahalanobisNorms() {
    }

    /**
     * @param x     rows
     * @param lower Cholesky factor L of the matrix defining the norm
     * @param rows  which rows (null: all); the result has one entry per listed row, in that order
     */
    public static double[] compute(RowBlockMatrix x, DMatrixRMaj lower, int[] rows) {
        Checks.notEmpty(x, "data matrix");
        int d = x.cols();
        Checks.lowerFactor(lower, d, "Cholesky factor");
        int[] sel = Checks.rowsOrAll(rows, x.rows(), "row subset");
        double[] q = new double[sel.length];
        double[] l = lower.data;
        int chunks = (sel.length + RowChunks.CHUNK - 1) / RowChunks.CHUNK;
        IntStream.range(0, chunks).parallel().forEach(c -> {
            double[] z = new double[d];
            int to = Math.min(sel.length, (c + 1) * RowChunks.CHUNK);
            for (int k = c * RowChunks.CHUNK; k < to; k++) {
                x.copyRow(sel[k], z, 0);
                forwardSubstitute(l, d, z);
                double s = 0;
                for (int j = 0; j < d; j++) {
                    s += z[j] * z[j];
                }
                q[k] = s;
            }
        });
        return q;
    }

    /** In place: z <- L^{-1} z. */
    static void forwardSubstitute(double[] l, int d, double[] z) {
        for (int j = 0; j < d; j++) {
            int rj = j * d;
            double s = z[j];
            for (int k = 0; k < j; k++) {
                s -= l[rj + k] * z[k];
            }
            z[j] = s / l[rj + j];
        }
    }
}
