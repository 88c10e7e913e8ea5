package org.dpgauss.engine;

import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.RowChunkMap;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.random.CounterBasedGenerator;
import org.ejml.data.DMatrixRMaj;

/**
 * The numerical primitives every dpgauss algorithm is written against (design.md, "The compute
 * primitives"). Implementations: {@link OpenBlasEngine} (native OpenBLAS), {@link CpuEngine} (EJML, always
 * available, the reference) and the CUDA backend.
 * Every implementation passes the same contract test and gives the same answers up to rounding;
 * verdicts (singular / not positive definite), neighbour counts and peeled sets are identical.
 *
 * <p>Data are row-major doubles in {@link RowBlockMatrix} row blocks; d x d operands are EJML
 * {@link DMatrixRMaj}. Inputs are validated: a dimension mismatch or a non-finite value is an
 * {@link IllegalArgumentException} naming the argument.
 */
public interface ComputeEngine extends AutoCloseable {

    /** Short name: {@code cpu-openblas}, {@code cpu-ejml} or {@code gpu}. */
    String name();

    /** What runs underneath (library, threads, device), for reports. */
    String description();

    /**
     * Weighted Gram of a row subset, {@code (1/divisor) * sum_{i in rows} w_i y_i y_i^T}.
     *
     * @param rows    row indices (null: all)
     * @param weights per-row weights indexed by row, finite and >= 0 (null: all ones)
     */
    DMatrixRMaj weightedGram(RowBlockMatrix y, int[] rows, double[] weights, double divisor);

    /**
     * The Gram of mapped rows, {@code (1/divisor) sum_i f(x_i) f(x_i)^T}: by default
     * {@code weightedGram(RowChunkMap.materialise(f, x, this::whiten), null, null, divisor)}; an engine may compute
     * it without forming the mapped rows, equal to that to rounding (the OpenBLAS engine streams them chunk by chunk
     * and whitens by a product with {@code L^{-1}}). Each row's image depends on that row alone, so the bits are a
     * function of the engine and the rows, not of how a caller splits its passes.
     *
     * @param x the rows (not modified)
     * @param f the row map (whitening and clipping)
     * @param divisor m &gt; 0
     * @return the symmetric d x d matrix
     */
    default DMatrixRMaj mappedGram(RowBlockMatrix x, RowChunkMap f, double divisor) {
        return weightedGram(RowChunkMap.materialise(f, x, this::whiten), null, null, divisor);
    }

    /** Cholesky {@code A = L L^T} of a symmetric matrix (lower triangle read) with an explicit verdict. */
    CholeskyResult cholesky(DMatrixRMaj a);

    /** X with {@code L X = B}. */
    DMatrixRMaj solveLower(DMatrixRMaj lower, DMatrixRMaj b);

    /** X with {@code L^T X = B}. */
    DMatrixRMaj solveLowerTranspose(DMatrixRMaj lower, DMatrixRMaj b);

    /** {@code ||L^{-1} x_i||^2} for the listed rows (null: all), in the order listed. */
    double[] mahalanobisNorms(RowBlockMatrix x, DMatrixRMaj lower, int[] rows);

    /** Whitening {@code X L^{-T}}. */
    RowBlockMatrix whiten(RowBlockMatrix x, DMatrixRMaj lower);

    /**
     * Rows times a small matrix, {@code X B} (n x m, x's block layout): row i is {@code B^T x_i}. For linear maps of
     * the rows inside mechanisms (e.g. the recursive second moment's shrinkage {@code x -> c (I - U U^T / 2) x}).
     * B is finite with {@code x.cols()} rows.
     */
    RowBlockMatrix multiplyRows(RowBlockMatrix x, DMatrixRMaj b);

    /**
     * Squared distances from every row of x to every row of the reference set, reduced on the fly to
     * the {@code keep} largest per row (descending): an n x keep matrix. LargestCore's order statistics.
     */
    RowBlockMatrix largestReferenceDistances(RowBlockMatrix x, RowBlockMatrix reference, int keep);

    /** {@code c_i = #{k : ||x_i - x_k|| <= radius}}, self included; tiled, never n x n in memory. */
    int[] neighbourCounts(RowBlockMatrix x, double radius);

    /**
     * Gaussian random projection {@code D^T G} (d x r), {@code G_ij = generator.normal(firstIndex + i*r + j)},
     * streamed in row blocks.
     */
    DMatrixRMaj gaussianProjection(RowBlockMatrix data, int r, CounterBasedGenerator generator, long firstIndex);

    /** Symmetric eigendecomposition, eigenvalues ascending, sign-normalised eigenvectors. */
    SymmetricEigen symmetricEigen(DMatrixRMaj a);

    /** {@code op(A) op(B)} with op = transpose where asked. */
    DMatrixRMaj multiply(DMatrixRMaj a, boolean transA, DMatrixRMaj b, boolean transB);

    /**
     * LargestGoodSubset peeling (spec unbounded-gaussian-sampling §3.3) from {@code start} (null: all
     * rows) at threshold lambda with Gram divisor m. Every backend returns the set of
     * {@code cpu.LargestGoodSubsetPeeling}: certified violators leave before each Gram, and a set with a dominant
     * row is decided in a rotated basis (issue 24, item 3), so no row at any scale swamps the singularity test.
     */
    GoodSubset largestGoodSubset(RowBlockMatrix y, double lambda, boolean[] start, double divisor);

    /** Releases device resources; a no-op on the CPU. */
    @Override
    void close();
}
