package org.dpgauss.learn;

import java.util.Arrays;
import java.util.Comparator;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The eigen-decomposition of a released symmetric matrix, sorted by eigenvalue, largest first: post-processing of a
 * private release (it reads no data). Each eigenvector's sign is fixed so that its entry of largest magnitude is
 * positive (the first such entry on ties), so that equal matrices give equal outputs. Immutable.
 */
final class SymmetricEigen {

    private final double[] values;
    private final double[][] vectors; // vectors[i] is the unit eigenvector of values[i]

    private SymmetricEigen(double[] values, double[][] vectors) {
        this.values = values;
        this.vectors = vectors;
    }

    /**
     * @param rows a symmetric d x d matrix by rows (its upper triangle is read), finite
     * @return its eigen-decomposition, eigenvalues in decreasing order; null if EJML does not converge
     */
    static SymmetricEigen of(double[][] rows) {
        int d = rows.length;
        DMatrixRMaj a = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                a.set(i, j, rows[i][j]);
                a.set(j, i, rows[i][j]);
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, true, true);
        if (!eig.decompose(a)) {
            return null;
        }
        Integer[] order = new Integer[d];
        double[] val = new double[d];
        double[][] vec = new double[d][];
        for (int i = 0; i < d; i++) {
            order[i] = i;
            val[i] = eig.getEigenvalue(i).getReal();
            DMatrixRMaj v = eig.getEigenVector(i);
            if (v == null) {
                return null;
            }
            vec[i] = unitWithSign(v.data, d);
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -val[i]));
        double[] sortedValues = new double[d];
        double[][] sortedVectors = new double[d][];
        for (int r = 0; r < d; r++) {
            sortedValues[r] = val[order[r]];
            sortedVectors[r] = vec[order[r]];
        }
        return new SymmetricEigen(sortedValues, sortedVectors);
    }

    private static double[] unitWithSign(double[] v, int d) {
        double norm = 0;
        int arg = 0;
        for (int j = 0; j < d; j++) {
            norm = Math.hypot(norm, v[j]);
            if (Math.abs(v[j]) > Math.abs(v[arg])) {
                arg = j;
            }
        }
        double s = (v[arg] < 0 ? -1 : 1) / (norm > 0 ? norm : 1);
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            out[j] = v[j] * s;
        }
        return out;
    }

    /** @return the eigenvalues, largest first (a copy) */
    double[] values() {
        return values.clone();
    }

    /** @return the first k eigenvalues, largest first */
    double[] topValues(int k) {
        return Arrays.copyOf(values, k);
    }

    /** @return the first k unit eigenvectors as rows (copies) */
    double[][] topVectors(int k) {
        double[][] out = new double[k][];
        for (int i = 0; i < k; i++) {
            out[i] = vectors[i].clone();
        }
        return out;
    }

    /** @return the smallest eigenvalue */
    double min() {
        return values[values.length - 1];
    }
}
