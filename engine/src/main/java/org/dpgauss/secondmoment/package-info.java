/**
 * Private estimation of the uncentred second-moment matrix {@code (1/n) sum x_i x_i^T}: Mahpud &amp; Sheffet,
 * "A Private Approximation of the 2nd-Moment Matrix of Any Subsamplable Input" (NeurIPS 2025), spec
 * {@code second-moment-estimation.md}: recursive preconditioning ({@link org.dpgauss.secondmoment.RecursiveSecondMoment}),
 * the minimum-eigenvalue estimator, and the baselines Analyze Gauss, CoinPress and subsample-and-aggregate, all
 * registered in {@link org.dpgauss.secondmoment.SecondMomentMethods}.
 * <p>Guarantees: rho-zCDP under the replace-one relation (the minimum-eigenvalue step is (epsilon, delta)-DP and is
 * composed with it); noise is the symmetric discrete Gaussian of {@code org.dpgauss.privacy.noise}.
 */
package org.dpgauss.secondmoment;
