/**
 * Exact hockey-stick divergence between two multivariate Gaussians and the tools built on it (spec {@code ndis.md}
 * §2-5, §6.8): {@link org.dpgauss.ndis.HockeyStickDivergence} ({@code delta_{X,Y}(eps)}, X first), privacy profiles,
 * the white-box {@link org.dpgauss.ndis.DeltaAuditor}, and analytic bounds (Lemma 2, Theorem 4.2, Def. 6).
 * Nothing here touches data or releases anything. Covariances are variances, not standard deviations.
 * Reference values: {@code docs/references/reference-values.md}, {@code docs/references/ndis-values.md}.
 */
package org.dpgauss.ndis;
