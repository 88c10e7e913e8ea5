package org.dpgauss.cpu;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.CommonOps_MT_DDRM;

/** General product {@code op(A) op(B)} of small dense matrices (d x d and the like). */
public final class MatrixProduct {

    /**
     * From this many multiply-adds on, EJML's concurrent product is faster on 2 cores: measured 0.82x at
     * d = 64 and 1.58x at d = 128 (bench/results/vm-2026-11-20/concurrent-product-check.txt).
     */
    static final long CONCURRENT_THRESHOLD = 100L * 100 * 100;

    private MatrixProduct() {
    }

    public static DMatrixRMaj multiply(DMatrixRMaj a, boolean transA, DMatrixRMaj b, boolean transB) {
        if (a == null || b == null) {
            throw new IllegalArgumentException("matrix operand is null");
        }
        int ar = transA ? a.numCols : a.numRows;
        int ac = transA ? a.numRows : a.numCols;
        int br = transB ? b.numCols : b.numRows;
        int bc = transB ? b.numRows : b.numCols;
        if (ac != br) {
            throw new IllegalArgumentException("inner dimensions differ: op(A) is " + ar + " x " + ac + ", op(B) is "
                    + br + " x " + bc);
        }
        DMatrixRMaj c = new DMatrixRMaj(ar, bc);
        boolean mt = (long) ar * ac * bc >= CONCURRENT_THRESHOLD;
        if (!transA && !transB) {
            if (mt) {
                CommonOps_MT_DDRM.mult(a, b, c);
            } else {
                CommonOps_DDRM.mult(a, b, c);
            }
        } else if (transA && !transB) {
            if (mt) {
                CommonOps_MT_DDRM.multTransA(a, b, c);
            } else {
                CommonOps_DDRM.multTransA(a, b, c);
            }
        } else if (!transA) {
            if (mt) {
                CommonOps_MT_DDRM.multTransB(a, b, c);
            } else {
                CommonOps_DDRM.multTransB(a, b, c);
            }
        } else {
            if (mt) {
                CommonOps_MT_DDRM.multTransAB(a, b, c);
            } else {
                CommonOps_DDRM.multTransAB(a, b, c);
            }
        }
        return c;
    }
}
