package org.dpgauss.secondmoment;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/** Shared fixtures of the baseline tests (AnalyzeGauss, SubsampleAndAggregate, CoinPress). */
final class BaselineTestData {

    static final ComputeEngine CPU = CpuEngine.instance();

    private BaselineTestData() {
    }

    /** Variances 1 .. 1/kappa, geometric, d of them. */
    static double[] geometric(int d, double kappa) {
        double[] v = new double[d];
        for (int j = 0; j < d; j++) {
            v[j] = d == 1 ? 1 : Math.pow(kappa, -(double) j / (d - 1));
        }
        return v;
    }

    /** The exact second moment (1/n) X^T X. */
    static DMatrixRMaj secondMoment(RowBlockMatrix x) {
        return CPU.weightedGram(x, null, null, x.rows());
    }

    static double maxRowNorm(RowBlockMatrix x) {
        double m = 0;
        for (int i = 0; i < x.rows(); i++) {
            double s = 0;
            for (double v : x.row(i)) {
                s += v * v;
            }
            m = Math.max(m, s);
        }
        return Math.sqrt(m);
    }
}
