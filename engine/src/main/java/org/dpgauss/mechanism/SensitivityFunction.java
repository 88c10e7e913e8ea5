package org.dpgauss.mechanism;

/**
 * The public map from the added noise variance {@code sigma} (a VARIANCE: the noise is {@code sigma I_m}, spec
 * ndis §0) to the NDIS sensitivity of the query at that noise level (spec §6.5, Def. 5 with {@code N = sigma I}).
 * It must not depend on the data; Theorem 6.1 needs it to hold for every sigma.
 */
@FunctionalInterface
public interface SensitivityFunction {

    /**
     * @param variance the noise variance sigma, {@code > 0}
     * @return the sensitivity bounds at that variance
     */
    NdisSensitivity at(double variance);
}
