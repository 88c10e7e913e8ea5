/**
 * The generalized chi-square distribution {@code Q = sum_j w_j chi2'(k_j, nc_j) + sigma Z} (weights of either sign;
 * spec {@code ndis.md} §4): CDF and survival function with a bound on the absolute error, by Ruben's series for
 * positive weights and saddlepoint-line inversion otherwise. Reference values (Davies 1980, Imhof 1961):
 * {@code docs/references/reference-values.md}.
 */
package org.dpgauss.gx2;
