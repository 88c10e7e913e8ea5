package org.dpgauss.sampling;

import java.util.Objects;
import org.dpgauss.privacy.PrivacyGuarantee;

/**
 * The output of a PTR-guarded mechanism of this package: either PASS with one vector (a sample for the samplers,
 * an estimate for the mean estimator) and the guarantee it was released under, or FAIL, which carries nothing at
 * all (design.md privacy conventions: no scores, no partial estimates). Immutable.
 */
final class SamplingRelease {

    private static final SamplingRelease FAIL = new SamplingRelease(null, null);

    private final double[] vector;
    private final PrivacyGuarantee guarantee;

    private SamplingRelease(double[] vector, PrivacyGuarantee guarantee) {
        this.vector = vector;
        this.guarantee = guarantee;
    }

    /** @return the FAIL outcome (a singleton: it holds nothing) */
    static SamplingRelease fail() {
        return FAIL;
    }

    static SamplingRelease pass(double[] vector, PrivacyGuarantee guarantee) {
        return new SamplingRelease(Objects.requireNonNull(vector, "vector").clone(),
                Objects.requireNonNull(guarantee, "guarantee"));
    }

    /** @return whether the PTR step failed */
    public boolean isFail() {
        return vector == null;
    }

    /**
     * @return a copy of the released vector
     * @throws IllegalStateException on FAIL
     */
    public double[] vector() {
        if (vector == null) {
            throw new IllegalStateException("FAIL carries no output");
        }
        return vector.clone();
    }

    /**
     * @return the guarantee of the release
     * @throws IllegalStateException on FAIL
     */
    public PrivacyGuarantee guarantee() {
        if (guarantee == null) {
            throw new IllegalStateException("FAIL carries no output");
        }
        return guarantee;
    }

    @Override
    public String toString() {
        return isFail() ? "FAIL" : "PASS " + java.util.Arrays.toString(vector) + " under " + guarantee.describe();
    }
}
