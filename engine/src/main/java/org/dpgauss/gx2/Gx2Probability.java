package org.dpgauss.gx2;

/**
 * A probability computed for a {@link GeneralizedChiSquare} with a bound on its absolute error and the method
 * that produced it.
 *
 * @param value              the probability, in [0, 1]
 * @param absoluteErrorBound a bound on |value - exact|: proven truncation bounds (series, integral tails,
 *                           integration range) plus Gauss-Kronrod error estimates plus a rounding allowance
 *                           (relative 1e-14 of the directly computed tail, more for long recurrences and
 *                           oscillating integrals); see GeneralizedChiSquare
 * @param method             which evaluation produced the value (closed form, Ruben series, inversion...)
 */
public record Gx2Probability(double value, double absoluteErrorBound, String method) {
}
