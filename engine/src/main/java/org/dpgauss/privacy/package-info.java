/**
 * Privacy guarantees and the source of privacy noise.
 * <p>Guarantees are typed: {@link org.dpgauss.privacy.ApproxDp} ((epsilon, delta)-DP) and
 * {@link org.dpgauss.privacy.Zcdp} (rho-zCDP, Bun &amp; Steinke 2016), always reported with a
 * {@link org.dpgauss.privacy.NeighbouringRelation} (replace-one or add/remove) in a
 * {@link org.dpgauss.privacy.PrivacyGuarantee}. zCDP is converted to (epsilon, delta) by one rule,
 * {@link org.dpgauss.privacy.ConversionPolicy} (Canonne, Kamath &amp; Steinke 2020, Cor. 13).
 * {@link org.dpgauss.privacy.RandomSource} is the single decision point for noise: secure by default
 * ({@code SecureRandom}); a seeded source exists only for reproducible tests and withdraws certification.
 */
package org.dpgauss.privacy;
