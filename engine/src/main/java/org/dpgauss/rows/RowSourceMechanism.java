package org.dpgauss.rows;

import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;

/**
 * A mechanism whose data passes are written against a {@link RowSource}, so that it runs on rows held in memory
 * and on rows held by a cluster alike. Its {@code validate(Dataset, ..)} and {@code compute(Dataset, ..)} are the
 * methods below on {@link LocalRows} in the default layout; same contract as {@link PrivateMechanism}.
 */
public interface RowSourceMechanism extends PrivateMechanism {

    /**
     * Checks the rows against the mechanism's public preconditions before any budget is charged.
     *
     * @param rows the rows
     * @param stated the statement for their public context
     * @throws IllegalArgumentException naming the first violating row (1-based, in the rows' order) and the rule
     */
    void validate(RowSource rows, Statement stated);

    /**
     * Computes the release from row passes; the d x d work runs on {@code context.engine()} and every noise value
     * is drawn from {@code context.random()}, on the caller's machine.
     *
     * @param rows the rows
     * @param stated the statement for their public context
     * @param context the engine of the caller and the noise source
     * @return the noised values, or FAIL
     */
    Outcome compute(RowSource rows, Statement stated, ReleaseContext context);
}
