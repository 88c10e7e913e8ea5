package org.dpgauss.rows;

import java.io.Serializable;

/**
 * Adds a block's partial to a running sum in a {@link RowSource#reduce} pass: called with the blocks of a group in
 * block order, then with the group sums in group order, so the result depends on the layout alone.
 *
 * @param <P> the partial
 */
@FunctionalInterface
public interface PartialFold<P> extends Serializable {

    /**
     * @param acc the running sum, or null before the first partial
     * @param partial the next partial (may be reused as the sum)
     * @return the new running sum
     */
    P apply(P acc, P partial);
}
