package org.dpgauss.engine;

import org.dpgauss.cpu.Cholesky;
import org.dpgauss.cpu.GaussianProjection;
import org.dpgauss.cpu.LargestGoodSubsetPeeling;
import org.dpgauss.cpu.MahalanobisNorms;
import org.dpgauss.cpu.MatrixProduct;
import org.dpgauss.cpu.NeighbourCounts;
import org.dpgauss.cpu.ReferenceDistances;
import org.dpgauss.cpu.SymmetricEigenDecomposition;
import org.dpgauss.cpu.TriangularSolve;
import org.dpgauss.cpu.WeightedGram;
import org.dpgauss.cpu.Whitening;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.random.CounterBasedGenerator;
import org.ejml.data.DMatrixRMaj;

/**
 * The EJML backend ({@code cpu-ejml}, {@code --engine ejml}): delegates each primitive to its pure-Java twin in the
 * cpu-fallback module. It runs everywhere, is the reference the other backends are tested against, and is the
 * CPU engine where the OpenBLAS natives cannot load ({@link OpenBlasEngine}).
 */
public final class CpuEngine implements ComputeEngine {

    private static final CpuEngine INSTANCE = new CpuEngine();

    private CpuEngine() {
    }

    public static CpuEngine instance() {
        return INSTANCE;
    }

    @Override
    public String name() {
        return "cpu-ejml";
    }

    @Override
    public String description() {
        return "cpu-ejml (EJML " + ejmlVersion() + ", " + Runtime.getRuntime().availableProcessors() + " threads)";
    }

    private static String ejmlVersion() {
        String v = org.ejml.EjmlVersion.VERSION;
        return v == null ? "?" : v;
    }

    @Override
    public DMatrixRMaj weightedGram(RowBlockMatrix y, int[] rows, double[] weights, double divisor) {
        return WeightedGram.compute(y, rows, weights, divisor);
    }

    @Override
    public CholeskyResult cholesky(DMatrixRMaj a) {
        return Cholesky.decompose(a);
    }

    @Override
    public DMatrixRMaj solveLower(DMatrixRMaj lower, DMatrixRMaj b) {
        return TriangularSolve.solveLower(lower, b);
    }

    @Override
    public DMatrixRMaj solveLowerTranspose(DMatrixRMaj lower, DMatrixRMaj b) {
        return TriangularSolve.solveLowerTranspose(lower, b);
    }

    @Override
    public double[] mahalanobisNorms(RowBlockMatrix x, DMatrixRMaj lower, int[] rows) {
        return MahalanobisNorms.compute(x, lower, rows);
    }

    @Override
    public RowBlockMatrix whiten(RowBlockMatrix x, DMatrixRMaj lower) {
        return Whitening.whiten(x, lower);
    }

    @Override
    public RowBlockMatrix multiplyRows(RowBlockMatrix x, DMatrixRMaj b) {
        return org.dpgauss.cpu.RowProduct.multiplyRows(x, b);
    }

    @Override
    public RowBlockMatrix largestReferenceDistances(RowBlockMatrix x, RowBlockMatrix reference, int keep) {
        return ReferenceDistances.largest(x, reference, keep);
    }

    @Override
    public int[] neighbourCounts(RowBlockMatrix x, double radius) {
        return NeighbourCounts.count(x, radius);
    }

    @Override
    public DMatrixRMaj gaussianProjection(RowBlockMatrix data, int r, CounterBasedGenerator generator, long firstIndex) {
        return GaussianProjection.project(data, r, generator, firstIndex);
    }

    @Override
    public SymmetricEigen symmetricEigen(DMatrixRMaj a) {
        return SymmetricEigenDecomposition.decompose(a);
    }

    @Override
    public DMatrixRMaj multiply(DMatrixRMaj a, boolean transA, DMatrixRMaj b, boolean transB) {
        return MatrixProduct.multiply(a, transA, b, transB);
    }

    @Override
    public GoodSubset largestGoodSubset(RowBlockMatrix y, double lambda, boolean[] start, double divisor) {
        return LargestGoodSubsetPeeling.peel(y, lambda, start, divisor);
    }

    @Override
    public void close() {
        // nothing to release
    }

    @Override
    public String toString() {
        return description();
    }
}
