/**
 * What people want from a private second moment (issue 26): private principal component analysis
 * ({@link org.dpgauss.learn.PrivatePca}) and private linear / ridge regression by sufficient-statistics perturbation
 * ({@link org.dpgauss.learn.PrivateLinearRegression}), each one release under the release contract with one
 * guarantee and an a-priori accuracy statement, built as post-processing of the second-moment releases of
 * {@code org.dpgauss.secondmoment} (and, for PCA, a private mean of {@code org.dpgauss.mean} for centring).
 * <p>Guarantees: zCDP / (epsilon, delta)-DP under the replace-one relation (n public).
 */
package org.dpgauss.learn;
