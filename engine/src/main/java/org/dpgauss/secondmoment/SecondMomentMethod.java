package org.dpgauss.secondmoment;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;

/**
 * A private estimator of the uncentred second-moment matrix {@code (1/n) sum_i x_i x_i^T} (spec
 * second-moment-estimation §1.1). Implementations are configured at construction (budget, radius, ...) and state
 * their guarantee type and neighbouring relation in their Javadoc and in the {@link SecondMomentEstimate} they
 * return. The number of rows {@code n} is public (replace-one neighbours).
 */
public interface SecondMomentMethod {

    /** @return the registered name, e.g. {@code recursive} (see {@link SecondMomentMethods}) */
    String name();

    /**
     * Releases a private estimate.
     *
     * @param x the data, {@code n x d}, finite
     * @param random the randomness of the privacy noise ({@link RandomSource#secure()} for private releases)
     * @param engine the compute engine
     * @return PASS with the matrix and guarantee, or FAIL carrying nothing
     */
    SecondMomentEstimate estimate(RowBlockMatrix x, RandomSource random, ComputeEngine engine);
}
