package org.dpgauss.cpu;

import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.CounterBasedGenerator;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Gaussian random projection {@code D^T G} (d x r) with the n x r matrix G never materialised: entry
 * (i, j) of G is the standard normal number {@code firstIndex + i*r + j} of a counter-based generator,
 * generated one row block at a time (spec ndis §10). The same key and index give the same G on every
 * backend.
 */
public final class GaussianProjection {

    private GaussianProjection() {
    }

    public static DMatrixRMaj project(RowBlockMatrix data, int r, CounterBasedGenerator generator, long firstIndex) {
        Checks.projection(data, r, generator, firstIndex);
        int n = data.rows();
        int d = data.cols();
        int chunks = (n + RowChunks.CHUNK - 1) / RowChunks.CHUNK;
        return RowChunks.deterministicSum(chunks, d, r, (c, acc, scratch) -> {
            int from = c * RowChunks.CHUNK;
            int to = Math.min(n, from + RowChunks.CHUNK);
            DMatrixRMaj[] s = scratch == null ? new DMatrixRMaj[3] : (DMatrixRMaj[]) scratch;
            DMatrixRMaj block = RowChunks.gatherRange(data, from, to, s[0]);
            DMatrixRMaj g = s[1] != null && s[1].data.length >= (to - from) * r ? s[1] : new DMatrixRMaj(to - from, r);
            g.reshape(to - from, r, false);
            generator.fillNormals(firstIndex + (long) from * r, g.data, 0, (to - from) * r);
            DMatrixRMaj prod = s[2] == null ? new DMatrixRMaj(d, r) : s[2];
            CommonOps_DDRM.multTransA(block, g, prod);
            CommonOps_DDRM.addEquals(acc, prod);
            s[0] = block;
            s[1] = g;
            s[2] = prod;
            return s;
        });
    }
}
