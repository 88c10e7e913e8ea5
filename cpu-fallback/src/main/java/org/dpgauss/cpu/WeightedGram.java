package org.dpgauss.cpu;

import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Weighted Gram of a row subset, {@code (1/m) * sum_{i in S} w_i y_i y_i^T} (a SYRK with row weights).
 * StableCov uses it with {@code m} the total number of pairs, not |S| (spec unbounded-gaussian-sampling
 * §3.3 line 3); LargestGoodSubset with unit weights.
 */
public final class WeightedGram {

    private WeightedGram() {
    }

    /**
     * @param y       the rows y_i
     * @param rows    the subset S as row indices (null: all rows); duplicates count twice
     * @param weights w_i indexed by row (length y.rows()), finite and >= 0; null: all ones
     * @param divisor m > 0
     * @return the symmetric d x d matrix
     */
    public static DMatrixRMaj compute(RowBlockMatrix y, int[] rows, double[] weights, double divisor) {
        int[] sel = Checks.weightedGram(y, rows, weights, divisor);
        int d = y.cols();
        if (sel.length == 0) {
            return new DMatrixRMaj(d, d);
        }
        int chunks = (sel.length + RowChunks.CHUNK - 1) / RowChunks.CHUNK;
        DMatrixRMaj sum = RowChunks.deterministicSum(chunks, d, d, (c, acc, scratch) -> {
            int from = c * RowChunks.CHUNK;
            int to = Math.min(sel.length, from + RowChunks.CHUNK);
            DMatrixRMaj[] s = scratch == null ? new DMatrixRMaj[2] : (DMatrixRMaj[]) scratch;
            DMatrixRMaj chunk = RowChunks.gather(y, sel, from, to, s[0]);
            if (weights != null) {
                // scale rows by sqrt(w_i) so the product stays a symmetric inner product
                for (int k = 0; k < to - from; k++) {
                    double sw = Math.sqrt(weights[sel[from + k]]);
                    int off = k * d;
                    for (int j = 0; j < d; j++) {
                        chunk.data[off + j] *= sw;
                    }
                }
            }
            DMatrixRMaj prod = s[1] == null ? new DMatrixRMaj(d, d) : s[1];
            CommonOps_DDRM.multTransA(chunk, chunk, prod);
            CommonOps_DDRM.addEquals(acc, prod);
            s[0] = chunk;
            s[1] = prod;
            return s;
        });
        CommonOps_DDRM.scale(1.0 / divisor, sum);
        symmetrize(sum);
        return sum;
    }

    /** Copies the lower triangle onto the upper one so the result is exactly symmetric. */
    static void symmetrize(DMatrixRMaj a) {
        int d = a.numRows;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                a.data[j * d + i] = a.data[i * d + j];
            }
        }
    }
}
