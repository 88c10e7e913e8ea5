/**
 * Private covariance (issue 29): {@link org.dpgauss.covariance.PrivateCovariance}, a clipped Gaussian mean and a
 * private second moment ({@code org.dpgauss.secondmoment}) of the rows centred at a public centre, composed into one
 * release by the privacy accountant, with the covariance {@code S~ - m~ m~^T} as post-processing.
 * <p>Guarantee: rho-zCDP under the replace-one relation (n public), for every input.
 */
package org.dpgauss.covariance;
