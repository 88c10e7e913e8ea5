/**
 * Private mean estimators that need no covariance structure: the clipped Gaussian-mechanism mean
 * ({@link org.dpgauss.mean.ClippedGaussianMean}, the baseline of spec anisotropic-mean-estimation §10).
 * Guarantee: rho-zCDP under the replace-one relation, with a public clipping radius and centre.
 * The anisotropic estimators are in {@code org.dpgauss.mean.anisotropic}; the covariance-aware estimator of BHS23 is
 * {@code org.dpgauss.sampling.CovarianceAwareMean}.
 */
package org.dpgauss.mean;
