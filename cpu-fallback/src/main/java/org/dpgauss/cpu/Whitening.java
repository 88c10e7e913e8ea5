package org.dpgauss.cpu;

import java.util.stream.IntStream;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * Whitening {@code Z = X L^{-T}}: row i becomes {@code L^{-1} x_i}, so Euclidean geometry of Z is the
 * Mahalanobis geometry of X with respect to {@code L L^T}.
 */
public final class Whitening {

    private Whitening() {
    }

    public static RowBlockMatrix whiten(RowBlockMatrix x, DMatrixRMaj lower) {
        Checks.notEmpty(x, "data matrix");
        int d = x.cols();
        Checks.lowerFactor(lower, d, "Cholesky factor");
        RowBlockMatrix z = RowBlockMatrix.zeros(x.rows(), d, x.blockRows());
        double[] l = lower.data;
        IntStream.range(0, x.blockCount()).forEach(b -> {
            double[] src = x.block(b);
            double[] dst = z.block(b);
            int rowsInBlock = x.blockRowCount(b);
            int chunks = (rowsInBlock + RowChunks.CHUNK - 1) / RowChunks.CHUNK;
            IntStream.range(0, chunks).parallel().forEach(c -> {
                double[] row = new double[d];
                int to = Math.min(rowsInBlock, (c + 1) * RowChunks.CHUNK);
                for (int k = c * RowChunks.CHUNK; k < to; k++) {
                    System.arraycopy(src, k * d, row, 0, d);
                    MahalanobisNorms.forwardSubstitute(l, d, row);
                    System.arraycopy(row, 0, dst, k * d, d);
                }
            });
        });
        return z;
    }
}
