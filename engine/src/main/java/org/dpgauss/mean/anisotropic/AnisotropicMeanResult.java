package org.dpgauss.mean.anisotropic;

import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.privacy.PrivacyGuarantee;

/**
 * The output of {@link RescaledAveraging}: either an estimate with the guarantee it was released under, or
 * {@link #FAIL} (the symbol bottom of spec anisotropic-mean-estimation §3.1, step 5), which carries nothing else
 * (design.md privacy conventions: no scores, no partial estimates, no counts). Immutable.
 */
final class AnisotropicMeanResult {

    /** The failure output: no estimate, no counts, no reason. */
    public static final AnisotropicMeanResult FAIL = new AnisotropicMeanResult(null, null);

    private final double[] estimate;
    private final PrivacyGuarantee guarantee;

    private AnisotropicMeanResult(double[] estimate, PrivacyGuarantee guarantee) {
        this.estimate = estimate;
        this.guarantee = guarantee;
    }

    static AnisotropicMeanResult success(double[] estimate, PrivacyGuarantee guarantee) {
        return new AnisotropicMeanResult(Objects.requireNonNull(estimate, "estimate").clone(),
                Objects.requireNonNull(guarantee, "guarantee"));
    }

    /** @return true for the failure output bottom */
    public boolean isFail() {
        return estimate == null;
    }

    /**
     * @return the private mean estimate (a copy)
     * @throws IllegalStateException on {@link #FAIL}
     */
    public double[] estimate() {
        if (estimate == null) {
            throw new IllegalStateException("the release failed (bottom): there is no estimate");
        }
        return estimate.clone();
    }

    /**
     * @return the guarantee of the release
     * @throws IllegalStateException on {@link #FAIL} (the guarantee of the mechanism is
     *         {@link RescaledAveraging#guarantee()})
     */
    public PrivacyGuarantee guarantee() {
        if (guarantee == null) {
            throw new IllegalStateException("the release failed (bottom): it carries nothing");
        }
        return guarantee;
    }

    @Override
    public String toString() {
        return isFail() ? "FAIL" : "estimate " + Arrays.toString(estimate) + " under " + guarantee.describe();
    }
}
