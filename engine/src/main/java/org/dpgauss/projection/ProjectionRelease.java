package org.dpgauss.projection;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * What a random-projection mechanism releases: the {@code d x r} matrix {@code M = D̄^T G} (spec ndis §6.1), the
 * ridge level {@code lambda} that was added (public: a function of the parameters, or for PTR of the privately
 * released lower bound, spec §6.4), and the guarantee. Everything here may be published; the ChaCha20 key that
 * generated G is not part of it and is never kept.
 *
 * <p>The Gram estimator of spec §6.2 (Theorem 5.2) is {@link #gramEstimate()}: {@code (1/r) M M^T - lambda I},
 * unbiased for {@code D^T D}; for the Poisson wrapper it is divided by the sampling rate q (spec §6.3 [X]), which
 * makes it unbiased for {@code D^T D} of the full data. Immutable.
 */
public final class ProjectionRelease {

    private final DMatrixRMaj output;
    private final double ridge;
    private final double gramScale;
    private final int rowsUsed;
    private final int clippedRows;
    private final PrivacyGuarantee guarantee;
    private final Map<String, Object> details;

    ProjectionRelease(DMatrixRMaj output, double ridge, double gramScale, int rowsUsed, int clippedRows,
            PrivacyGuarantee guarantee, Map<String, Object> details) {
        this.output = output.copy();
        this.ridge = ridge;
        this.gramScale = gramScale;
        this.rowsUsed = rowsUsed;
        this.clippedRows = clippedRows;
        this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
        this.details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /** @return a copy of the released {@code d x r} matrix {@code M} */
    public DMatrixRMaj output() {
        return output.copy();
    }

    /** @return the released matrix as rows, {@code d} arrays of length {@code r} */
    public double[][] outputArray() {
        double[][] a = new double[output.numRows][output.numCols];
        for (int i = 0; i < output.numRows; i++) {
            for (int j = 0; j < output.numCols; j++) {
                a[i][j] = output.get(i, j);
            }
        }
        return a;
    }

    /** @return the data dimension d (rows of M) */
    public int dimension() {
        return output.numRows;
    }

    /** @return the number of projection columns r */
    public int rank() {
        return output.numCols;
    }

    /** @return the ridge level lambda added as {@code sqrt(lambda) I_d} rows (spec §6.1 step 2) */
    public double ridge() {
        return ridge;
    }

    /** @return the factor the Gram estimate is divided by: the Poisson rate q, otherwise 1 */
    public double gramScale() {
        return gramScale;
    }

    /**
     * @return the number of data rows that entered the projection (after Poisson sampling). NOT private: it is
     *         reported only to the data owner's log, never in the released output; see {@link #details()}
     */
    int rowsUsed() {
        return rowsUsed;
    }

    /** @return how many rows were scaled down to the row bound (0 unless clipping was enabled) */
    public int clippedRows() {
        return clippedRows;
    }

    /** @return the privacy guarantee of this release */
    public PrivacyGuarantee guarantee() {
        return guarantee;
    }

    /** @return wrapper parameters (all data-independent or privately released), in a fixed order */
    public Map<String, Object> details() {
        return details;
    }

    /**
     * The unbiased estimator of {@code D^T D} (spec §6.2): {@code ((1/r) M M^T - lambda I) / q}.
     *
     * @return a new symmetric {@code d x d} matrix
     */
    public DMatrixRMaj gramEstimate() {
        int d = output.numRows;
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(1.0 / output.numCols, output, output, s);
        for (int i = 0; i < d; i++) {
            s.add(i, i, -ridge);
        }
        if (gramScale != 1) {
            CommonOps_DDRM.scale(1.0 / gramScale, s);
        }
        return s;
    }
}
