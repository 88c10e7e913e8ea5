package org.dpgauss.secondmoment;

import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.release.PrivateMechanism;

/**
 * A private estimator of the uncentred second-moment matrix {@code (1/n) sum_i x_i x_i^T} (spec
 * second-moment-estimation §1.1) under the release contract: it states its guarantee and public parameters before
 * it reads the data ({@link #state}) and releases the {@code d x d} matrix {@code secondMoment} (and, when asked,
 * its PSD projection {@code psdProjection}) or FAIL. Run it through {@code Releases.run} or a
 * {@code PrivacySession}. The number of rows {@code n} is public (replace-one neighbours).
 */
public interface SecondMomentMethod extends PrivateMechanism {

    /** @return the registered name, e.g. {@code recursive} (see {@link SecondMomentMethods}) */
    String name();

    /** @return replace-one: datasets of equal, public size n differing in one row */
    @Override
    default NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }
}
