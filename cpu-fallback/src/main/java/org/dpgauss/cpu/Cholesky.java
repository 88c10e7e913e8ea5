package org.dpgauss.cpu;

import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.CholeskyVerdict;
import org.ejml.data.DMatrixRMaj;

/**
 * Cholesky factorization {@code A = L L^T} of a symmetric d x d matrix with an explicit
 * singular / not-positive-definite verdict (see {@link CholeskyResult} for the shared tolerance).
 * Reads the lower triangle only, as LAPACK's dpotrf does.
 */
public final class Cholesky {

    private Cholesky() {
    }

    public static CholeskyResult decompose(DMatrixRMaj a) {
        Checks.square(a, "matrix");
        Checks.finite(a, "matrix");
        int d = a.numRows;
        double maxDiag = 0;
        for (int j = 0; j < d; j++) {
            maxDiag = Math.max(maxDiag, Math.abs(a.unsafe_get(j, j)));
        }
        double[] l = new double[d * d];
        double[] src = a.data;
        // Row-oriented (Cholesky–Banachiewicz) so both inner loops read rows of L contiguously.
        for (int i = 0; i < d; i++) {
            int ri = i * d;
            for (int j = 0; j <= i; j++) {
                int rj = j * d;
                double s = src[ri + j];
                for (int k = 0; k < j; k++) {
                    s -= l[ri + k] * l[rj + k];
                }
                if (i == j) {
                    // tolerance relative to this column's own diagonal entry (scale-free, CholeskyResult)
                    double tol = CholeskyResult.pivotTolerance(d, src[ri + i]);
                    if (s > tol) {
                        l[ri + i] = Math.sqrt(s);
                    } else {
                        CholeskyVerdict v = s < -tol ? CholeskyVerdict.NOT_POSITIVE_DEFINITE : CholeskyVerdict.SINGULAR;
                        if (maxDiag == 0.0) {
                            v = CholeskyVerdict.SINGULAR;
                        }
                        return CholeskyResult.failed(v, i, s);
                    }
                } else {
                    l[ri + j] = s / l[rj + j];
                }
            }
        }
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        out.data = l;
        return CholeskyResult.positiveDefinite(out);
    }
}
