package org.dpgauss.cpu;

import java.util.stream.IntStream;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * Work partitioning shared by the primitives. Sums of d x d partial results are formed over a fixed
 * number of contiguous groups and added in group order, so results do not depend on thread scheduling
 * (bit-identical from run to run, which LargestGoodSubset's set equality relies on).
 */
final class RowChunks {

    /** Rows gathered per dense chunk; 512 x d doubles stay in L2 for the d of interest. */
    static final int CHUNK = 512;
    /** Fixed number of reduction groups (independent of the core count, for determinism). */
    static final int GROUPS = 16;

    private RowChunks() {
    }

    /** Copies rows {@code sel[from..to)} of {@code x} into a (to-from) x d dense matrix. */
    static DMatrixRMaj gather(RowBlockMatrix x, int[] sel, int from, int to, DMatrixRMaj reuse) {
        int d = x.cols();
        int c = to - from;
        DMatrixRMaj out = reuse != null && reuse.data.length >= c * d ? reuse : new DMatrixRMaj(c, d);
        out.reshape(c, d, false);
        for (int k = 0; k < c; k++) {
            x.copyRow(sel[from + k], out.data, k * d);
        }
        return out;
    }

    /** Copies the contiguous rows {@code [from, to)} of {@code x} into a dense matrix. */
    static DMatrixRMaj gatherRange(RowBlockMatrix x, int from, int to, DMatrixRMaj reuse) {
        int d = x.cols();
        int c = to - from;
        DMatrixRMaj out = reuse != null && reuse.data.length >= c * d ? reuse : new DMatrixRMaj(c, d);
        out.reshape(c, d, false);
        int i = from;
        while (i < to) {
            int b = i / x.blockRows();
            int inBlock = i - x.blockStart(b);
            int take = Math.min(to - i, x.blockRowCount(b) - inBlock);
            System.arraycopy(x.block(b), inBlock * d, out.data, (i - from) * d, take * d);
            i += take;
        }
        return out;
    }

    /**
     * In place: subtracts {@code mu} from every row of {@code m} and stores each centred row's squared norm
     * in {@code norms}. Distances are translation invariant; centring first keeps
     * {@code |a|^2 + |b|^2 - 2 a.b} from cancelling when the data sit far from the origin.
     */
    static void centre(DMatrixRMaj m, double[] mu, double[] norms) {
        int d = m.numCols;
        for (int i = 0; i < m.numRows; i++) {
            double s = 0;
            for (int c = 0; c < d; c++) {
                double v = m.data[i * d + c] - mu[c];
                m.data[i * d + c] = v;
                s += v * v;
            }
            norms[i] = s;
        }
    }

    /**
     * Sums {@code partial.apply(chunk)} over {@code chunks} chunks, in parallel over a fixed set of
     * groups, each summing its chunks in order; groups are then added in order.
     */
    static DMatrixRMaj deterministicSum(int chunks, int rows, int cols, ChunkAccumulator partial) {
        int groups = Math.max(1, Math.min(GROUPS, chunks));
        DMatrixRMaj[] sums = new DMatrixRMaj[groups];
        IntStream.range(0, groups).parallel().forEach(g -> {
            DMatrixRMaj acc = new DMatrixRMaj(rows, cols);
            int lo = (int) ((long) chunks * g / groups);
            int hi = (int) ((long) chunks * (g + 1) / groups);
            Object scratch = null;
            for (int c = lo; c < hi; c++) {
                scratch = partial.addChunk(c, acc, scratch);
            }
            sums[g] = acc;
        });
        DMatrixRMaj total = sums[0];
        for (int g = 1; g < groups; g++) {
            double[] t = total.data;
            double[] s = sums[g].data;
            for (int k = 0; k < t.length; k++) {
                t[k] += s[k];
            }
        }
        return total;
    }

    /** Adds the contribution of chunk {@code c} into {@code acc}; returns scratch state to reuse. */
    @FunctionalInterface
    interface ChunkAccumulator {
        Object addChunk(int c, DMatrixRMaj acc, Object scratch);
    }
}
