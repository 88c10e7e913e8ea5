package org.dpgauss.rows;

import java.io.Serializable;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The partial of one block in a {@link RowSource#reduce} pass. It may run on a cluster executor, hence
 * {@link Serializable}: it captures only public values, released values and the per-row state a mechanism keeps on
 * the caller's machine (never logged).
 *
 * @param <P> the partial
 */
@FunctionalInterface
public interface BlockPass<P> extends Serializable {

    /**
     * @param blockIndex the block's index in the layout (its first row is {@code layout.blockStart(blockIndex)})
     * @param rows the block's rows after the pending maps (do not modify)
     * @param engine the engine of the machine running the block (sequential inside a cluster task)
     * @return the block's partial
     */
    P apply(int blockIndex, RowBlockMatrix rows, ComputeEngine engine);
}
