package org.dpgauss.gpu;

import org.dpgauss.kernels.HostRows;
import org.dpgauss.linalg.RowBlockMatrix;

/** A {@link RowBlockMatrix} seen by the kernels module (which does not depend on the linear-algebra types). */
final class RowBlockHostRows implements HostRows {

    private final RowBlockMatrix m;

    RowBlockHostRows(RowBlockMatrix m) {
        this.m = m;
    }

    RowBlockMatrix matrix() {
        return m;
    }

    @Override
    public int rows() {
        return m.rows();
    }

    @Override
    public int cols() {
        return m.cols();
    }

    @Override
    public int blockCount() {
        return m.blockCount();
    }

    @Override
    public int blockStart(int b) {
        return m.blockStart(b);
    }

    @Override
    public int blockRowCount(int b) {
        return m.blockRowCount(b);
    }

    @Override
    public double[] block(int b) {
        return m.block(b);
    }
}
