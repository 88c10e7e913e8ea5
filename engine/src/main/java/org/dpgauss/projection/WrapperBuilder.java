package org.dpgauss.projection;

import java.util.Objects;
import org.dpgauss.privacy.ApproxDp;

/**
 * The parameters every projection wrapper's builder takes, by name so that nothing can be swapped silently: the
 * rank, the budget, the public row bound, the row policy and the optional public bound on the number of rows. Each
 * wrapper's builder adds its own parameters and builds.
 *
 * @param <B> the wrapper's builder, returned by every setter
 */
abstract class WrapperBuilder<B extends WrapperBuilder<B>> {

    Integer rank;
    ApproxDp budget;
    Double rowBound;
    boolean clipRows;
    long maxRows;

    WrapperBuilder() {
    }

    /**
     * @param n a public upper bound on the number of rows, {@code >= 1}, used only for the accuracy statement
     *        (absolute with it, relative to {@code ||D^T D|| + lambda} without it)
     * @return this builder
     */
    public B maxRows(long n) {
        this.maxRows = RandomProjectionMechanism.checkMaxRows(n);
        return self();
    }

    /**
     * @param r the number of projection columns, {@code >= 1}
     * @return this builder
     */
    public B rank(int r) {
        this.rank = r;
        return self();
    }

    /**
     * @param total the target {@code (epsilon, delta)} of the wrapper: epsilon {@code >= 0}, delta in (0, 1)
     * @return this builder
     */
    public B budget(ApproxDp total) {
        this.budget = Objects.requireNonNull(total, "budget");
        return self();
    }

    /**
     * @param l the public row-norm bound, in {@code [1e-100, 1e100]}
     * @return this builder
     */
    public B rowBound(double l) {
        this.rowBound = l;
        return self();
    }

    /**
     * @param clip whether the user expects rows above the bound (they are scaled onto the ball either way)
     * @return this builder
     */
    public B clipRows(boolean clip) {
        this.clipRows = clip;
        return self();
    }

    /**
     * @param own the wrapper's own required parameter, as its setter reads, e.g. {@code samplingRate(q)}
     * @param ownGiven whether it was given
     * @throws IllegalStateException naming every required parameter when one is missing
     */
    void requireAll(String own, boolean ownGiven) {
        if (rank == null || budget == null || rowBound == null || !ownGiven) {
            throw new IllegalStateException("rank(r), budget(ApproxDp), " + own + " and rowBound(l) are required");
        }
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
