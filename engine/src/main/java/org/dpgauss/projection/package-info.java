/**
 * The random projection mechanism M_RP and its Poisson-subsampled and propose-test-release wrappers: Wei, Lu,
 * Magdon-Ismail &amp; Zikas, "The Normal Distributions Indistinguishability Spectrum" (arXiv:2309.01243), spec
 * {@code ndis.md} §6.1-6.4, calibrated by {@code org.dpgauss.calibration.RandomProjectionCurve}.
 * <p>Guarantees are (epsilon, delta)-DP under the add/remove relation, for rows of public L2 norm bound {@code l}.
 * Reference values: {@code docs/references/ndis-values.md}.
 */
package org.dpgauss.projection;
