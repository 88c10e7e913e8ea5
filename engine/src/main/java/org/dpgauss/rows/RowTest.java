package org.dpgauss.rows;

import java.io.Serializable;

/**
 * A test on one row (for example a norm bound), for the non-private diagnostic pass {@link RowSource#firstRejected};
 * no release checks its rows with it (issue 24: a row outside a public bound is clipped by the mechanism).
 */
@FunctionalInterface
public interface RowTest extends Serializable {

    /**
     * @param row the row's values (do not modify)
     * @return true when the row violates the precondition
     */
    boolean rejects(double[] row);
}
