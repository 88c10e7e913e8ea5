package org.dpgauss.rows;

import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;

/**
 * A mechanism whose data passes are written against a {@link RowSource}, so that it runs on rows held in memory
 * and on rows held by a cluster alike. Its {@code compute(Dataset, ..)} is the method below on {@link LocalRows} in
 * the default layout; same contract as {@link PrivateMechanism} (no data-dependent precondition: nothing reads the
 * rows before the charge).
 */
public interface RowSourceMechanism extends PrivateMechanism {

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
