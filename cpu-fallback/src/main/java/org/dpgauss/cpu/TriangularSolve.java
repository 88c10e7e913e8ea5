package org.dpgauss.cpu;

import org.ejml.data.DMatrixRMaj;

/** Solves {@code L X = B} and {@code L^T X = B} for a lower-triangular, non-singular L. */
public final class TriangularSolve {

    private TriangularSolve() {
    }

    /** X with {@code L X = B} (forward substitution), B is d x k. */
    public static DMatrixRMaj solveLower(DMatrixRMaj lower, DMatrixRMaj b) {
        int d = check(lower, b);
        int k = b.numCols;
        double[] l = lower.data;
        DMatrixRMaj x = b.copy();
        double[] xs = x.data;
        for (int i = 0; i < d; i++) {
            int ri = i * d;
            for (int p = 0; p < i; p++) {
                double lip = l[ri + p];
                if (lip != 0.0) {
                    int rp = p * k;
                    int rx = i * k;
                    for (int c = 0; c < k; c++) {
                        xs[rx + c] -= lip * xs[rp + c];
                    }
                }
            }
            double inv = 1.0 / l[ri + i];
            for (int c = 0; c < k; c++) {
                xs[i * k + c] *= inv;
            }
        }
        return x;
    }

    /** X with {@code L^T X = B} (back substitution), B is d x k. */
    public static DMatrixRMaj solveLowerTranspose(DMatrixRMaj lower, DMatrixRMaj b) {
        int d = check(lower, b);
        int k = b.numCols;
        double[] l = lower.data;
        DMatrixRMaj x = b.copy();
        double[] xs = x.data;
        for (int i = d - 1; i >= 0; i--) {
            double inv = 1.0 / l[i * d + i];
            for (int c = 0; c < k; c++) {
                xs[i * k + c] *= inv;
            }
            // (L^T)_{p,i} = L_{i,p} for p < i: eliminate x_i from the rows above.
            for (int p = 0; p < i; p++) {
                double lip = l[i * d + p];
                if (lip != 0.0) {
                    for (int c = 0; c < k; c++) {
                        xs[p * k + c] -= lip * xs[i * k + c];
                    }
                }
            }
        }
        return x;
    }

    private static int check(DMatrixRMaj lower, DMatrixRMaj b) {
        Checks.square(lower, "triangular factor");
        int d = lower.numRows;
        Checks.lowerFactor(lower, d, "triangular factor");
        if (b == null || b.numRows != d) {
            throw new IllegalArgumentException("right-hand side must have " + d + " rows, got "
                    + (b == null ? "null" : b.numRows + " x " + b.numCols));
        }
        Checks.finite(b, "right-hand side");
        return d;
    }
}
