package org.dpgauss.linalg;

import java.io.Serializable;
import org.ejml.data.DMatrixRMaj;

/**
 * A row-local map applied to rows on their way into a Gram matrix (a clipping, optionally after a whitening
 * {@code x -> L^{-1} x}), so an engine can stream the rows through it chunk by chunk instead of materialising the
 * mapped n x d matrix: {@code rows(x) -> gram(rows)} in one pass over the data. Output row i depends on input row
 * i alone (and on public or released parameters), so the result does not depend on how the rows are cut into
 * chunks. It may travel to a cluster executor, hence {@link Serializable}. {@link #apply} runs inside the engine's
 * pass, on the engine's per-thread scratch: it must not call the engine.
 */
public interface RowChunkMap extends Serializable {

    /**
     * @return the lower-triangular factor L whose whitening {@code x -> L^{-1} x} (the engine's
     *     {@code whiten}) runs before {@link #apply}, or null for none; not modified by callers
     */
    DMatrixRMaj whitening();

    /**
     * Maps {@code count} rows in place: {@code rows[offset + r d, offset + (r + 1) d)} holds row {@code first + r}
     * of {@code source}, whitened when {@link #whitening} is not null, and is replaced by its image.
     *
     * @param rows the rows (row-major, d = {@code source.cols()} values each)
     * @param offset the index of the first value
     * @param count the number of rows
     * @param source the unmapped rows (read only: for a row whose whitened form is not finite)
     * @param first the index in {@code source} of the first row
     */
    void apply(double[] rows, int offset, int count, RowBlockMatrix source, int first);

    /**
     * The mapped rows as a new matrix, with {@code x}'s block layout: the whitening (if any) computed by
     * {@code whiten}, then {@link #apply} on every storage block. The reference for streamed implementations,
     * which must produce the same rows.
     *
     * @param f the map
     * @param x the rows (not modified)
     * @param whiten the engine's whitening {@code (x, L) -> X L^{-T}}
     * @return the mapped rows
     */
    static RowBlockMatrix materialise(RowChunkMap f, RowBlockMatrix x,
            java.util.function.BiFunction<RowBlockMatrix, DMatrixRMaj, RowBlockMatrix> whiten) {
        DMatrixRMaj lower = f.whitening();
        RowBlockMatrix out = lower == null ? x.copy() : whiten.apply(x, lower);
        int d = x.cols();
        for (int b = 0; b < out.blockCount(); b++) {
            f.apply(out.block(b), 0, out.blockRowCount(b), x, out.blockStart(b));
        }
        return out;
    }
}
