package org.dpgauss.cpu;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Squared Euclidean distances from every row of X to every row of a reference set R, fused with the
 * per-row order statistics LargestCore needs: for each row only the {@code keep} largest distances are
 * kept, in descending order (spec unbounded-gaussian-sampling §3.5: {@code i in S_l <=> r_(M-l)(i) <=
 * e^{l/k} lambda0}, and r_(M-l) is the (l+1)-th largest, so keep = 2k+1 suffices).
 *
 * <p>Tiles of X are multiplied against R with a GEMM after subtracting R's mean (distances are
 * translation invariant; centring reduces cancellation in {@code |x|^2 + |r|^2 - 2 x.r}); only a
 * tile x |R| block of distances exists at a time. The kept distances are then recomputed directly as
 * {@code sum_j (x_j - r_j)^2}, so returned values carry no cancellation error.
 */
public final class ReferenceDistances {

    static final int TILE = 256;

    private ReferenceDistances() {
    }

    /**
     * @return an n x keep matrix; row i holds the keep largest squared distances from x_i to R, descending
     */
    public static RowBlockMatrix largest(RowBlockMatrix x, RowBlockMatrix reference, int keep) {
        Checks.referenceDistances(x, reference, keep);
        int d = x.cols();
        int m = reference.rows();
        DMatrixRMaj ref = RowChunks.gatherRange(reference, 0, m, null);
        double[] mu = reference.columnMeans();
        DMatrixRMaj refCentred = ref.copy();
        double[] refNorm = new double[m];
        RowChunks.centre(refCentred, mu, refNorm);
        int n = x.rows();
        RowBlockMatrix out = RowBlockMatrix.zeros(n, keep);
        int tiles = (n + TILE - 1) / TILE;
        IntStream.range(0, tiles).parallel().forEach(t -> {
            int from = t * TILE;
            int to = Math.min(n, from + TILE);
            int c = to - from;
            DMatrixRMaj xs = RowChunks.gatherRange(x, from, to, null);
            DMatrixRMaj xc = xs.copy();
            double[] xNorm = new double[c];
            RowChunks.centre(xc, mu, xNorm);
            DMatrixRMaj g = new DMatrixRMaj(c, m);
            CommonOps_DDRM.multTransB(xc, refCentred, g);
            double[] heapVal = new double[keep];
            int[] heapIdx = new int[keep];
            double[] kept = new double[keep];
            for (int i = 0; i < c; i++) {
                int size = 0;
                int rowOff = i * m;
                for (int j = 0; j < m; j++) {
                    double dist = xNorm[i] + refNorm[j] - 2.0 * g.data[rowOff + j];
                    if (size < keep) {
                        siftUp(heapVal, heapIdx, size++, dist, j);
                    } else if (dist > heapVal[0]) {
                        replaceTop(heapVal, heapIdx, keep, dist, j);
                    }
                }
                for (int s = 0; s < keep; s++) {
                    int j = heapIdx[s];
                    double e = 0;
                    for (int q = 0; q < d; q++) {
                        double v = xs.data[i * d + q] - ref.data[j * d + q];
                        e += v * v;
                    }
                    kept[s] = e;
                }
                Arrays.sort(kept);
                double[] blockArr = out.block((from + i) / out.blockRows());
                int base = ((from + i) % out.blockRows()) * keep;
                for (int s = 0; s < keep; s++) {
                    blockArr[base + s] = kept[keep - 1 - s];
                }
            }
        });
        return out;
    }

    /**
     * Min-heap of the k largest values kept so far (shared with the OpenBLAS backend): inserts {@code v} (row
     * {@code j}) at position {@code pos}, the current size.
     *
     * @param val heap values
     * @param idx heap row indices
     * @param pos the heap size before the insertion
     * @param v the value
     * @param j its row index
     */
    public static void siftUp(double[] val, int[] idx, int pos, double v, int j) {
        while (pos > 0) {
            int parent = (pos - 1) >>> 1;
            if (val[parent] <= v) {
                break;
            }
            val[pos] = val[parent];
            idx[pos] = idx[parent];
            pos = parent;
        }
        val[pos] = v;
        idx[pos] = j;
    }

    /**
     * Replaces the heap's minimum by {@code v} (row {@code j}) and restores the heap.
     *
     * @param val heap values
     * @param idx heap row indices
     * @param size the heap size
     * @param v the value
     * @param j its row index
     */
    public static void replaceTop(double[] val, int[] idx, int size, double v, int j) {
        int pos = 0;
        while (true) {
            int child = 2 * pos + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && val[child + 1] < val[child]) {
                child++;
            }
            if (val[child] >= v) {
                break;
            }
            val[pos] = val[child];
            idx[pos] = idx[child];
            pos = child;
        }
        val[pos] = v;
        idx[pos] = j;
    }
}
