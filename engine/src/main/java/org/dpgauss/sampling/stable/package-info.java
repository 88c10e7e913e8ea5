/**
 * The deterministic, NON-PRIVATE stable subroutines of the sampler (spec unbounded-gaussian-sampling §3.2-3.5):
 * StableCov, LargestGoodSubset, StableMean and LargestCore. They return scores and weights that are private only
 * after the PTR step of {@code org.dpgauss.sampling}. {@link org.dpgauss.sampling.stable.LargestGoodSubset} has a
 * literal form (the algorithm as written) and a production form that returns the same set. Design record:
 * {@code docs/design/largest-good-subset.md}. Both decide "A singular" without letting one row swamp the Gram
 * (issue 24, item 3): rows certain to exceed lambda leave first ({@code cpu.CertifiedViolators}), the pivot
 * tolerance is relative to each column's own diagonal entry ({@code linalg.CholeskyResult}), and a set with a
 * dominant row runs in a basis of its own ({@code cpu.DominantRows}), so one row at any scale moves the score by
 * at most 2 (spec §5 S3).
 */
package org.dpgauss.sampling.stable;
