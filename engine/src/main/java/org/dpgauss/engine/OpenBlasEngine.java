package org.dpgauss.engine;

import org.dpgauss.cpu.openblas.NativeBlas;
import org.dpgauss.cpu.openblas.OpenBlasPrimitives;
import org.dpgauss.cpu.openblas.PrunedNeighbourCounts;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.RowChunkMap;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.random.CounterBasedGenerator;
import org.ejml.data.DMatrixRMaj;

/**
 * The native CPU backend ({@code cpu-openblas}): every primitive that maps to BLAS / LAPACK runs on bytedeco's
 * bundled OpenBLAS ({@link OpenBlasPrimitives}); {@link CpuEngine} (EJML) stays the pure-Java reference and the
 * fallback where the natives cannot load. Both pass the same contract test.
 */
public final class OpenBlasEngine implements ComputeEngine {

    private static OpenBlasEngine instance;

    private OpenBlasEngine() {
    }

    /** The process-wide engine, or null with the reason in {@code why[0]} when the natives cannot load here. */
    static synchronized OpenBlasEngine open(String[] why) {
        String failure = NativeBlas.unavailableReason();
        if (failure != null) {
            why[0] = failure;
            return null;
        }
        if (instance == null) {
            instance = new OpenBlasEngine();
        }
        return instance;
    }

    /** The engine, or an {@link EngineUnavailableException} saying why it cannot run here. */
    public static OpenBlasEngine instance() {
        String[] why = new String[1];
        OpenBlasEngine e = open(why);
        if (e == null) {
            throw new EngineUnavailableException("the OpenBLAS CPU engine cannot run here: " + why[0]
                    + ". Use --engine ejml.");
        }
        return e;
    }

    @Override
    public String name() {
        return "cpu-openblas";
    }

    @Override
    public String description() {
        return "cpu-openblas (" + NativeBlas.version() + " via javacpp, " + NativeBlas.threads()
                + " BLAS threads; neighbour counts pruned by the triangle inequality)";
    }

    @Override
    public DMatrixRMaj weightedGram(RowBlockMatrix y, int[] rows, double[] weights, double divisor) {
        return OpenBlasPrimitives.weightedGram(y, rows, weights, divisor);
    }

    /** Streamed: the mapped rows are never formed ({@link OpenBlasPrimitives#mappedGram}). */
    @Override
    public DMatrixRMaj mappedGram(RowBlockMatrix x, RowChunkMap f, double divisor) {
        return OpenBlasPrimitives.mappedGram(x, f, divisor);
    }

    @Override
    public CholeskyResult cholesky(DMatrixRMaj a) {
        return OpenBlasPrimitives.cholesky(a);
    }

    @Override
    public DMatrixRMaj solveLower(DMatrixRMaj lower, DMatrixRMaj b) {
        return OpenBlasPrimitives.solveLower(lower, b);
    }

    @Override
    public DMatrixRMaj solveLowerTranspose(DMatrixRMaj lower, DMatrixRMaj b) {
        return OpenBlasPrimitives.solveLowerTranspose(lower, b);
    }

    @Override
    public double[] mahalanobisNorms(RowBlockMatrix x, DMatrixRMaj lower, int[] rows) {
        return OpenBlasPrimitives.mahalanobisNorms(x, lower, rows);
    }

    @Override
    public RowBlockMatrix whiten(RowBlockMatrix x, DMatrixRMaj lower) {
        return OpenBlasPrimitives.whiten(x, lower);
    }

    @Override
    public RowBlockMatrix multiplyRows(RowBlockMatrix x, DMatrixRMaj b) {
        return OpenBlasPrimitives.multiplyRows(x, b);
    }

    @Override
    public RowBlockMatrix largestReferenceDistances(RowBlockMatrix x, RowBlockMatrix reference, int keep) {
        return OpenBlasPrimitives.largestReferenceDistances(x, reference, keep);
    }

    @Override
    public int[] neighbourCounts(RowBlockMatrix x, double radius) {
        return PrunedNeighbourCounts.count(x, radius);
    }

    @Override
    public DMatrixRMaj gaussianProjection(RowBlockMatrix data, int r, CounterBasedGenerator generator, long firstIndex) {
        return OpenBlasPrimitives.gaussianProjection(data, r, generator, firstIndex);
    }

    @Override
    public SymmetricEigen symmetricEigen(DMatrixRMaj a) {
        return OpenBlasPrimitives.symmetricEigen(a);
    }

    @Override
    public DMatrixRMaj multiply(DMatrixRMaj a, boolean transA, DMatrixRMaj b, boolean transB) {
        return OpenBlasPrimitives.multiply(a, transA, b, transB);
    }

    @Override
    public GoodSubset largestGoodSubset(RowBlockMatrix y, double lambda, boolean[] start, double divisor) {
        return OpenBlasPrimitives.largestGoodSubset(y, lambda, start, divisor);
    }

    @Override
    public void close() {
        // the natives stay loaded for the life of the process; scratch buffers are per thread
    }

    @Override
    public String toString() {
        return description();
    }
}
