/**
 * The deterministic, NON-PRIVATE stable subroutines of the sampler (spec unbounded-gaussian-sampling §3.2-3.5):
 * StableCov, LargestGoodSubset, StableMean and LargestCore. They return scores and weights that are private only
 * after the PTR step of {@code org.dpgauss.sampling}. {@link org.dpgauss.sampling.stable.LargestGoodSubset} has a
 * literal form (the algorithm as written) and a production form that returns the same set. Design record:
 * {@code docs/design/largest-good-subset.md}.
 */
package org.dpgauss.sampling.stable;
