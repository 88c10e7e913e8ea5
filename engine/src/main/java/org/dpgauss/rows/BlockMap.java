package org.dpgauss.rows;

import java.io.Serializable;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * A row-local transformation of a block of rows, determined by public parameters and released values only (a
 * clipping radius, a released whitening matrix): output row i depends on input row i alone, so the result does
 * not depend on how the rows are cut into blocks. It may run on a cluster executor, hence {@link Serializable}; it
 * must not capture private values or keys that are not meant to travel with the task.
 */
@FunctionalInterface
public interface BlockMap extends Serializable {

    /**
     * @param block the rows (finite; not modified)
     * @param engine the engine of the machine running the block (sequential inside a cluster task)
     * @return the transformed rows, as many as the input (may be a new matrix or, for the identity, the input)
     */
    RowBlockMatrix apply(RowBlockMatrix block, ComputeEngine engine);
}
