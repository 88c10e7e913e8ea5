/**
 * The NDIS-calibrated Gaussian mechanism and its applications (spec {@code ndis.md} §6.5-6.7, Wei, Lu,
 * Magdon-Ismail &amp; Zikas): release a Gaussian-output query with added noise {@code sigma I} calibrated to a
 * Loewner-comparable NDIS sensitivity; Bayesian logistic regression and Gaussian-process regression at one query
 * point. Guarantees are (epsilon, delta)-DP under the add/remove relation. Sanity values:
 * {@code docs/references/ndis-values.md}.
 */
package org.dpgauss.mechanism;
