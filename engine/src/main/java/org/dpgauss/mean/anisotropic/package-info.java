/**
 * Dimension-free private mean estimation for anisotropic Gaussians: Dagan, Jordan, Yang, Zakynthinou &amp;
 * Zhivotovskiy, "Dimension-free Private Mean Estimation for Anisotropic Distributions" (NeurIPS), as specified in
 * spec {@code anisotropic-mean-estimation.md}.
 * <p>Algorithm 1 ({@link org.dpgauss.mean.anisotropic.RescaledAveraging}, known covariance, with
 * {@link org.dpgauss.mean.anisotropic.BasicFilter}), Algorithm 2 ({@link org.dpgauss.mean.anisotropic.UnknownCovarianceMean},
 * unknown diagonal covariance) and its subroutines (Algorithms 3-7), and the coordinate-wise baseline.
 * Guarantees are (epsilon, delta)-DP under the replace-one relation; a failed private test releases FAIL only.
 */
package org.dpgauss.mean.anisotropic;
