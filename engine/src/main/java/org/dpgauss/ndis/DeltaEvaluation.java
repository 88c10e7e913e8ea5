package org.dpgauss.ndis;

/**
 * One evaluation of the hockey-stick divergence {@code delta_{X,Y}(eps) = p0 - e^eps p1} (spec ndis §3,
 * Theorem 4.1), with the two probabilities of the privacy-loss region {@code S* = {p_X > e^eps p_Y}}:
 * {@code p0 = Pr[X in S*]} and {@code p1 = Pr[Y in S*]}.
 *
 * @param delta              the divergence, clamped to [0, 1]
 * @param p0                 {@code Pr[X in S*]} (the first generalized chi-square term)
 * @param p1                 {@code Pr[Y in S*]} (the second term)
 * @param absoluteErrorBound a bound on {@code |delta - exact|}: {@code err0 + e^eps err1} from the oracle's
 *                           bounds plus a rounding allowance (spec §6.8); 0-width only for exact cases
 * @param method             how it was computed ({@code identical}, {@code disjoint-support},
 *                           {@code gaussian-mechanism}, {@code chi-square-gamma}, {@code normal},
 *                           {@code gx2[...]})
 */
public record DeltaEvaluation(double delta, double p0, double p1, double absoluteErrorBound, String method) {
}
