package org.dpgauss.kernels;

/**
 * Row-major double data in row blocks, as the kernels module sees it (an adapter over the engine's
 * {@code RowBlockMatrix}; this module does not depend on the linear-algebra types). Block {@code b}
 * holds rows {@code [blockStart(b), blockStart(b) + blockRowCount(b))} in its first
 * {@code blockRowCount(b) * cols()} entries.
 */
public interface HostRows {

    int rows();

    int cols();

    int blockCount();

    int blockStart(int b);

    int blockRowCount(int b);

    double[] block(int b);
}
