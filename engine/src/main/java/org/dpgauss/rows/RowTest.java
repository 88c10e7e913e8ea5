package org.dpgauss.rows;

import java.io.Serializable;

/** A public precondition on one row (for example a norm bound), checked before any budget is charged. */
@FunctionalInterface
public interface RowTest extends Serializable {

    /**
     * @param row the row's values (do not modify)
     * @return true when the row violates the precondition
     */
    boolean rejects(double[] row);
}
