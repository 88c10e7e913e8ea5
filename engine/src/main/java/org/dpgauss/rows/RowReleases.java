package org.dpgauss.rows;

import java.util.Objects;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;

/** {@link Releases#run} for rows given as a {@link RowSource}: state (public facts), compute, assemble. */
public final class RowReleases {

    private RowReleases() {
    }

    /**
     * Runs a row mechanism outside any session (no budget is kept).
     *
     * @param mechanism the mechanism
     * @param rows the rows (at most 2^31-1: the mechanisms state their parameters with an int n)
     * @param delta the delta of stated conversions, in {@code (0, 1)}
     * @param context the caller's engine (d x d work) and the noise source
     * @return the release
     * @throws IllegalArgumentException if a public parameter does not suit the rows' public shape
     */
    public static PrivateRelease run(RowSourceMechanism mechanism, RowSource rows, double delta,
            ReleaseContext context) {
        return run(mechanism, rows, delta, context, PublicParameters.NONE);
    }

    /**
     * {@link #run(RowSourceMechanism, RowSource, double, ReleaseContext)} whose release also states where it was
     * computed.
     *
     * @param mechanism the mechanism
     * @param rows the rows
     * @param delta the delta of stated conversions
     * @param context the caller's engine and the noise source
     * @param where public parameters added to the release's own (e.g. {@code executorEngine} on a cluster)
     * @return the release
     */
    public static PrivateRelease run(RowSourceMechanism mechanism, RowSource rows, double delta,
            ReleaseContext context, PublicParameters where) {
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(context, "context");
        if (rows.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the mechanisms state their parameters for at most 2^31-1 rows");
        }
        Statement stated = Releases.state(mechanism,
                PublicContext.forPlanning((int) rows.rows(), rows.cols(), mechanism.relation(), delta));
        Outcome outcome = Objects.requireNonNull(mechanism.compute(rows, stated, context), "outcome");
        return Releases.assemble(stated.withParameters(where), outcome, context.random());
    }
}
