package org.dpgauss.cpu;

import java.util.stream.IntStream;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * Rows times a small matrix, {@code Y = X B} (n x d times d x m): row i of Y is {@code B^T x_i}. Each row is a
 * sum over {@code k = 0..d-1} in that order, so the result does not depend on the chunking.
 */
public final class RowProduct {

    private RowProduct() {
    }

    public static RowBlockMatrix multiplyRows(RowBlockMatrix x, DMatrixRMaj b) {
        Checks.rowProduct(x, b);
        int d = x.cols();
        int m = b.numCols;
        RowBlockMatrix y = RowBlockMatrix.zeros(x.rows(), m, x.blockRows());
        double[] bd = b.data;
        IntStream.range(0, x.blockCount()).forEach(blk -> {
            double[] src = x.block(blk);
            double[] dst = y.block(blk);
            int rowsInBlock = x.blockRowCount(blk);
            int chunks = (rowsInBlock + RowChunks.CHUNK - 1) / RowChunks.CHUNK;
            IntStream.range(0, chunks).parallel().forEach(c -> {
                int to = Math.min(rowsInBlock, (c + 1) * RowChunks.CHUNK);
                for (int r = c * RowChunks.CHUNK; r < to; r++) {
                    int in = r * d;
                    int out = r * m;
                    for (int k = 0; k < d; k++) { // y_i += x_ik * (row k of B): contiguous in B and in y_i
                        double v = src[in + k];
                        int bOff = k * m;
                        for (int j = 0; j < m; j++) {
                            dst[out + j] += v * bd[bOff + j];
                        }
                    }
                }
            });
        });
        return y;
    }
}
