package org.dpgauss.privacy;

/**
 * The one rule by which every zCDP statement in dpgauss is turned into {@code (epsilon, delta)}-DP, and every
 * {@code (epsilon, delta)} target into a zCDP budget: the tightest valid conversion the project has, Canonne,
 * Kamath &amp; Steinke 2020 Cor. 13 ({@link Zcdp#toApproxDpTight}), never looser than Bun–Steinke
 * ({@link Zcdp#toApproxDp}, kept for comparison). Guarantees carry the name {@link #NAME} so a reader knows which
 * conversion produced their epsilon.
 */
public final class ConversionPolicy {

    /** The name reported in a guarantee's {@code conversion} field. */
    public static final String NAME = "zCDP to (eps, delta) by Canonne-Kamath-Steinke 2020 Cor. 13";

    private ConversionPolicy() {
    }

    /**
     * @param guarantee the zCDP guarantee
     * @param delta the target delta, in {@code (0, 1)}
     * @return the {@code (epsilon, delta)}-DP it implies under this policy
     */
    public static ApproxDp toApproxDp(Zcdp guarantee, double delta) {
        return guarantee.toApproxDpTight(delta);
    }

    /**
     * @param epsilon the target epsilon, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @return the largest zCDP budget whose conversion under this policy meets the target
     */
    public static Zcdp rhoFor(double epsilon, double delta) {
        return Zcdp.forApproxDpTight(epsilon, delta);
    }
}
