package org.dpgauss.mechanism;

import java.util.Objects;
import org.dpgauss.ndis.LoewnerComparableBound.Variant;
import org.dpgauss.privacy.ApproxDp;

/**
 * The parameters the builders of the NDIS-calibrated mechanisms share, by name: the public maximum dataset size N
 * (it enters the sensitivity), the {@code (epsilon, delta)} of one release and the bound variant; and the checks of
 * their values. Each mechanism's builder adds its own parameters and builds.
 *
 * @param <B> the mechanism's builder, returned by every setter
 */
abstract class NdisBuilder<B extends NdisBuilder<B>> {

    Integer maxRows;
    ApproxDp budget;
    Variant variant = NdisGaussianMechanism.DEFAULT_VARIANT;

    NdisBuilder() {
    }

    /**
     * @param n the public maximum dataset size N &gt;= 1 (it enters the sensitivity)
     * @return this builder
     */
    public B maxRows(int n) {
        this.maxRows = n;
        return self();
    }

    /**
     * @param target the (epsilon, delta) of one release (epsilon finite and &gt;= 0, delta in (0, 1))
     * @return this builder
     */
    public B budget(ApproxDp target) {
        this.budget = Objects.requireNonNull(target, "budget");
        return self();
    }

    /**
     * @param v the bound ({@link NdisGaussianMechanism#DEFAULT_VARIANT} unless reproducing the paper)
     * @return this builder
     */
    public B bound(Variant v) {
        this.variant = Objects.requireNonNull(v, "bound");
        return self();
    }

    /** @param section the spec section where N enters the sensitivity, e.g. {@code §6.6} */
    void checkMaxRows(String section) {
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows=" + maxRows + " is outside [1, inf): the public maximum "
                    + "dataset size N enters the sensitivity (spec ndis " + section + ", §11.2)");
        }
    }

    static void positive(String name, double v, String why) {
        if (!(v > 0) || !Double.isFinite(v)) {
            throw new IllegalArgumentException(name + "=" + v + " is outside (0, inf): " + why);
        }
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
