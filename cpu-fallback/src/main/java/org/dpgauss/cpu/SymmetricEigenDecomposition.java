package org.dpgauss.cpu;

import org.dpgauss.linalg.SymmetricEigen;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/** Symmetric eigendecomposition via EJML's symmetric QR algorithm; eigenvalues ascending. */
public final class SymmetricEigenDecomposition {

    private SymmetricEigenDecomposition() {
    }

    public static SymmetricEigen decompose(DMatrixRMaj a) {
        Checks.square(a, "matrix");
        Checks.finite(a, "matrix");
        Checks.symmetric(a, "matrix");
        int d = a.numRows;
        DMatrixRMaj sym = a.copy();
        WeightedGram.symmetrize(sym);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, true, true);
        if (!eig.decompose(sym)) {
            throw new ArithmeticException("symmetric eigendecomposition did not converge for a " + d + " x " + d
                    + " matrix");
        }
        Integer[] order = new Integer[d];
        double[] vals = new double[d];
        for (int i = 0; i < d; i++) {
            order[i] = i;
            vals[i] = eig.getEigenvalue(i).real;
        }
        java.util.Arrays.sort(order, (p, q) -> Double.compare(vals[p], vals[q]));
        double[] sorted = new double[d];
        DMatrixRMaj vectors = new DMatrixRMaj(d, d);
        for (int c = 0; c < d; c++) {
            int src = order[c];
            sorted[c] = vals[src];
            DMatrixRMaj v = eig.getEigenVector(src);
            int arg = 0;
            for (int r = 1; r < d; r++) {
                if (Math.abs(v.data[r]) > Math.abs(v.data[arg]) * (1 + 1e-12)) {
                    arg = r;
                }
            }
            double sign = v.data[arg] < 0 ? -1 : 1;
            double norm = 0;
            for (int r = 0; r < d; r++) {
                norm += v.data[r] * v.data[r];
            }
            norm = Math.sqrt(norm);
            for (int r = 0; r < d; r++) {
                vectors.unsafe_set(r, c, sign * v.data[r] / norm);
            }
        }
        return new SymmetricEigen(sorted, vectors);
    }
}
