package org.dpgauss.rows;

import java.io.Serializable;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The partial of one block in a {@link RowSource#reduce(double[], BlockValuesPass, PartialFold)} pass, given the
 * block's slice of a per-row vector the caller's machine holds (e.g. noise drawn for every row). It may run on a
 * cluster executor, hence {@link Serializable}; like {@link BlockPass} it captures only public values, released
 * values and per-row state of the caller's machine.
 *
 * @param <P> the partial
 */
@FunctionalInterface
public interface BlockValuesPass<P> extends Serializable {

    /**
     * @param blockIndex the block's index in the layout
     * @param rows the block's rows after the pending maps (do not modify)
     * @param values the vector's entries for the block's rows, in row order (do not modify)
     * @param engine the engine of the machine running the block
     * @return the block's partial
     */
    P apply(int blockIndex, RowBlockMatrix rows, double[] values, ComputeEngine engine);
}
