/**
 * Private sampling from an unbounded Gaussian and the covariance-aware mean: Iverson, Kamath &amp; Mouzakis,
 * "Optimal Differentially Private Sampling of Unbounded Gaussians" ({@link org.dpgauss.sampling.UnboundedGaussianSampler}),
 * and Brown, Hopkins &amp; Smith 2023 ({@link org.dpgauss.sampling.CovarianceAwareMean}), spec
 * {@code unbounded-gaussian-sampling.md}.
 * <p>Guarantees are (epsilon, delta)-DP under the replace-one relation; the PTR step is the sound form by default
 * ({@link org.dpgauss.sampling.PtrMechanism#SOUND}); sizes follow a certified recipe
 * ({@link org.dpgauss.sampling.SamplerParameters}) unless overridden, and a failed test releases FAIL only.
 * Design records: {@code docs/design/sound-ptr.md}, {@code docs/design/chacha20-keystream.md}.
 */
package org.dpgauss.sampling;
