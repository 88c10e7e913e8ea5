/**
 * EJML implementations of the compute primitives (weighted Gram, Cholesky, triangular solve, Mahalanobis norms,
 * whitening, reference distances, neighbour counts, Gaussian projection, LargestGoodSubset peeling, symmetric
 * eigendecomposition, matrix products). Each has a CUDA twin of the same name in the kernels module. Row-major data
 * in row blocks; results do not depend on the number of threads.
 * <p><b>Internal</b>: not part of the library's API (docs/design/api-surface.md); reach the primitives through
 * {@code org.dpgauss.engine.ComputeEngine}.
 */
package org.dpgauss.cpu;
