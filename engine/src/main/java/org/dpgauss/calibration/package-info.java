/**
 * Privacy curves and the calibrations built on them (spec {@code ndis.md} §5.1, §5.5, §7): the Gaussian mechanism
 * curve and the analytic Gaussian mechanism (Balle &amp; Wang 2018), and the random-projection curve with its leverage
 * bound, ridge, Poisson and PTR recipes. Pure functions of public parameters. Golden values:
 * {@code docs/references/reference-values.md}, {@code docs/references/ndis-values.md}.
 */
package org.dpgauss.calibration;
