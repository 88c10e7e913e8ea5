package org.dpgauss.mechanism;

import java.util.Objects;
import org.dpgauss.privacy.PrivacyGuarantee;

/**
 * A released sample of an NDIS-calibrated Gaussian mechanism with its guarantee and the noise variance sigma*
 * (public: it depends only on the parameters). Immutable.
 *
 * @param value the released vector
 * @param noiseVariance sigma*
 * @param guarantee the privacy guarantee
 */
public record GaussianRelease(double[] value, double noiseVariance, PrivacyGuarantee guarantee) {

    /** Copies the value. */
    public GaussianRelease {
        value = Objects.requireNonNull(value, "value").clone();
        Objects.requireNonNull(guarantee, "guarantee");
    }

    @Override
    public double[] value() {
        return value.clone();
    }
}
