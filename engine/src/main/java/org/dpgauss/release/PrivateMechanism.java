package org.dpgauss.release;

import org.dpgauss.privacy.NeighbouringRelation;

/**
 * A differentially private mechanism under the release contract. It first states, from public facts only, what
 * it will release and under which guarantee ({@link #state}); then computes on the data ({@link #compute}),
 * returning only noised values or FAIL. Run it through {@link Releases#run} or a {@link PrivacySession}, which
 * assemble the one {@link PrivateRelease} every mechanism returns.
 *
 * <p>Implementations validate every public parameter in their factories or in {@link #state}, never after the
 * data are read: {@link #compute} must not throw on any dataset that {@link Dataset} accepts. A well-formed row
 * outside a public bound is brought inside by the rule the guarantee states (clipping, a secret subset), never
 * refused: there is no data-dependent precondition, so nothing reads the rows before a session has charged the
 * release (issue 24; docs/design/release-contract.md).
 */
public interface PrivateMechanism {

    /** @return the relation the guarantee is stated under (decides whether n is public) */
    NeighbouringRelation relation();

    /**
     * The statement of one release on a dataset of the given public shape.
     *
     * @param context the public facts
     * @return the statement
     * @throws IllegalArgumentException if a public parameter does not suit the context (e.g. a dimension)
     */
    Statement state(PublicContext context);

    /**
     * Computes the release.
     *
     * @param data the dataset
     * @param stated what {@link #state} returned for this dataset's public context
     * @param context the backend and the noise source
     * @return the noised values, or FAIL
     */
    Outcome compute(Dataset data, Statement stated, ReleaseContext context);
}
