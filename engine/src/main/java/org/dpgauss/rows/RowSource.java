package org.dpgauss.rows;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.RowChunkMap;
import org.dpgauss.random.ChaCha20;
import org.ejml.data.DMatrixRMaj;

/**
 * The private rows a mechanism reads, as passes over blocks: n rows of d finite doubles in a data-independent order,
 * cut into blocks by a public {@link RowLayout}. Every reduction computes one partial per block with a
 * {@link ComputeEngine} primitive and adds the partials in the layout's fixed order, so two implementations with the
 * same layout and the same engine return the same bits ({@link LocalRows} in memory; the dpgauss-spark module on a
 * cluster). Transformations ({@link #map}) are row-local and public, so a cluster may recompute them from the
 * cached rows on every pass. Only mechanisms read a row source; what they return is noised.
 */
public interface RowSource {

    /** @return n, the number of rows (private under add/remove neighbours: for mechanisms only) */
    long rows();

    /** @return d, the number of columns (public: the schema) */
    int cols();

    /** @return the layout every reduction follows */
    RowLayout layout();

    /**
     * @param f a row-local public transformation
     * @return the rows transformed by f (computed now, or on each pass, as the implementation chooses)
     */
    RowSource map(BlockMap f);

    /**
     * A row-local public transformation that changes the number of columns (e.g. a regression's scaled rows
     * {@code [x, 1, y]}, one column more than the data): the rows transformed by f, each into {@code cols} values, in
     * the same order and the same layout (the source's, chosen for its dimension: both implementations keep it, so
     * they agree bit for bit). Computed now or on each pass, as the implementation chooses.
     *
     * @param f a row-local public transformation whose every output block has {@code cols} columns
     * @param cols the number of columns of the transformed rows, at least 1
     * @return the transformed rows (held like these rows; {@link #discard} frees what they hold)
     * @throws IllegalArgumentException if {@code cols < 1}
     */
    RowSource map(BlockMap f, int cols);

    /**
     * The Gram matrix {@code (1/divisor) sum_i x_i x_i^T}: with one block, the engine's
     * {@code weightedGram(block, null, null, divisor)}; otherwise the engine's Gram of each block with divisor 1,
     * added in layout order and then multiplied by {@code 1/divisor}.
     *
     * @param divisor m &gt; 0
     * @return the symmetric d x d matrix
     */
    DMatrixRMaj gram(double divisor);

    /**
     * The Gram matrix of the mapped rows {@code (1/divisor) sum_i f(x_i) f(x_i)^T} in one pass, with the rule of
     * {@link #gram(double)} and the engine's {@code mappedGram} of each block in place of its Gram (the mapped rows
     * are not formed where the engine streams them), so two implementations with the same layout and engine return
     * the same bits.
     *
     * @param f a row-local public map (whitening and clipping)
     * @param divisor m &gt; 0
     * @return the symmetric d x d matrix
     */
    DMatrixRMaj gram(RowChunkMap f, double divisor);

    /**
     * The Gaussian projection {@code X^T G} (d x r), {@code G_ij = generator.normal(i r + j)} for the row at position
     * i: with one block, the engine's {@code gaussianProjection(block, r, generator, 0)}; otherwise each block's
     * projection from index {@code start r}, added in layout order. The generator's key travels with the tasks of
     * a cluster (never logged).
     *
     * @param r the number of columns of G
     * @param generator the counter-based generator
     * @return the d x r matrix
     */
    DMatrixRMaj gaussianProjection(int r, ChaCha20 generator);

    /** @return the exact column sums of the rows (independent of order and blocking) */
    ExactColumnSums exactColumnSums();

    /**
     * A non-private diagnostic pass: no release path calls it (issue 24: nothing reads a row before the charge, and a
     * row outside a public bound is clipped, not refused).
     *
     * @param test a row test
     * @return the position (0-based, in the data-independent order) of the first row the test rejects, or -1
     */
    long firstRejected(RowTest test);

    /**
     * A general pass: {@code pass} on every block (after the pending maps), the partials of a group folded in block
     * order, the group sums folded in group order on the caller's machine.
     *
     * @param pass the partial of one block
     * @param fold adds a partial to a running sum
     * @param <P> the partial
     * @return the folded partials (the fold of the one block's partial when there is one block)
     */
    <P> P reduce(BlockPass<P> pass, PartialFold<P> fold);

    /**
     * {@link #reduce} with a vector of one value per row held by the caller's machine (e.g. noise drawn for every
     * row): each block's pass receives its rows' entries. Here the vector travels with the pass; a cluster ships it
     * once per executor as a broadcast and destroys it after the pass, so it leaves no copy behind.
     *
     * @param perRow one value per row, in row order (not modified)
     * @param pass the partial of one block, given its entries
     * @param fold adds a partial to a running sum
     * @param <P> the partial
     * @return the folded partials
     * @throws IllegalArgumentException if {@code perRow} does not hold one value per row
     */
    default <P> P reduce(double[] perRow, BlockValuesPass<P> pass, PartialFold<P> fold) {
        checkPerRow(perRow, rows());
        RowLayout lay = layout();
        return reduce((b, rows, e) -> {
            int start = (int) lay.blockStart(b);
            return pass.apply(b, rows, java.util.Arrays.copyOfRange(perRow, start, start + rows.rows()), e);
        }, fold);
    }

    /**
     * @param perRow a vector for {@link #reduce(double[], BlockValuesPass, PartialFold)}
     * @param rows n
     * @throws IllegalArgumentException if it does not hold one value per row
     */
    static void checkPerRow(double[] perRow, long rows) {
        java.util.Objects.requireNonNull(perRow, "per-row values");
        if (perRow.length != rows) {
            throw new IllegalArgumentException("the per-row vector has " + perRow.length + " entries, expected one"
                    + " per row (n=" + rows + ")");
        }
    }

    /**
     * The paired differences {@code y_i = (x_i - x_{i+m}) / sqrt 2}, {@code i < m = floor(n/2)}, in the same layout
     * (the last row is unused when n is odd): the pairing follows the rows' data-independent order.
     *
     * @return the m rows (held like these rows; {@link #discard} frees them)
     * @throws IllegalArgumentException if n &lt; 2
     */
    default RowSource pairs() {
        return pairs(0, rows());
    }

    /**
     * {@link #pairs} of the rows at positions {@code from..to-1}: {@code y_i = (x_{from+i} - x_{from+i+m}) / sqrt 2},
     * {@code m = floor((to - from)/2)}.
     *
     * @param from the first position
     * @param to one past the last position
     * @return the m rows, in the same layout (held like these rows; {@link #discard} frees them)
     * @throws IllegalArgumentException if the range is not inside the rows or holds fewer than 2 rows
     */
    RowSource pairs(long from, long to);

    /**
     * @param from the first position
     * @param to one past the last position (&gt; from)
     * @return the rows at positions {@code from..to-1}, renumbered from 0, in the same layout (held like these
     *         rows; {@link #discard} frees them)
     * @throws IllegalArgumentException if the range is empty or not inside the rows
     */
    RowSource slice(long from, long to);

    /**
     * The rows at {@code positions}, in the order given, renumbered from 0, in {@code layout}: a random subset or
     * arrangement of the rows that the caller draws (Poisson subsampling, random groups). A cluster moves the rows
     * in one shuffle; the positions travel with its tasks (never logged) until {@link #discard}.
     *
     * @param positions distinct positions in {@code [0, n)}, at least one (not modified)
     * @param layout the layout of the selected rows
     * @return the k rows (held like these rows; {@link #discard} frees them)
     * @throws IllegalArgumentException if a position is repeated or outside the rows, or none is given
     */
    RowSource select(int[] positions, RowLayout layout);

    /**
     * @param positions the positions of {@link #select}
     * @param rows n
     * @return {@code target}: {@code target[p]} is the index of position p in {@code positions}, or -1
     * @throws IllegalArgumentException if a position is repeated or outside {@code [0, n)}, or none is given
     */
    static int[] selectionTargets(int[] positions, long rows) {
        if (positions.length == 0) {
            throw new IllegalArgumentException("a selection needs at least one row");
        }
        if (rows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a selection is for at most 2^31-1 rows");
        }
        int[] target = new int[(int) rows];
        java.util.Arrays.fill(target, -1);
        for (int i = 0; i < positions.length; i++) {
            int p = positions[i];
            if (p < 0 || p >= rows) {
                throw new IllegalArgumentException("selected position " + p + " is not one of the n=" + rows
                        + " rows");
            }
            if (target[p] >= 0) {
                throw new IllegalArgumentException("selected position " + p + " is repeated: a selection takes each"
                        + " row once");
            }
            target[p] = i;
        }
        return target;
    }

    /**
     * @param selected the columns to keep (0-based, distinct, public), in their new order
     * @return the rows (after the pending maps) restricted to those columns, in the same order and layout (held
     *         like these rows; {@link #discard} frees them)
     * @throws IllegalArgumentException if a column is outside {@code [0, d)} or repeated, or none is given
     */
    RowSource columns(int[] selected);

    /**
     * The second moments of random groups of rows: group t holds the rows at positions
     * {@code order[t m .. t m + m - 1]} (positions in the rows' data-independent order), and its matrix is the
     * engine's {@code weightedGram(x, thoseRows, null, m)}, the rows taken in that order. A cluster moves each row to
     * its group (one shuffle); {@code order} travels with that pass (never logged).
     *
     * @param order distinct positions in {@code [0, n)}, a multiple of m of them (the groups, one after another)
     * @param groupSize m &gt;= 1
     * @return the {@code order.length / m} symmetric d x d matrices, in group order
     * @throws IllegalArgumentException if the order is not distinct positions of these rows or not a multiple of m
     */
    DMatrixRMaj[] groupGrams(int[] order, int groupSize);

    /**
     * @param order the positions {@link #groupGrams} groups
     * @param groupSize m
     * @param rows n
     * @throws IllegalArgumentException if the order is not distinct positions in {@code [0, n)} or its length is not
     *         a multiple of m
     */
    static void checkGroups(int[] order, int groupSize, long rows) {
        if (groupSize < 1 || order == null || order.length % groupSize != 0) {
            throw new IllegalArgumentException("the groups need m >= 1 and a multiple of m positions; got m="
                    + groupSize + " and " + (order == null ? "no" : String.valueOf(order.length)) + " positions");
        }
        java.util.BitSet seen = new java.util.BitSet();
        for (int p : order) {
            if (p < 0 || p >= rows || seen.get(p)) {
                throw new IllegalArgumentException("position " + p + " is " + (p < 0 || p >= rows
                        ? "outside the n=" + rows + " rows" : "in two groups"));
            }
            seen.set(p);
        }
    }

    /**
     * @param selected the columns a {@link #columns} call keeps
     * @param cols d
     * @return a copy of {@code selected}
     * @throws IllegalArgumentException if a column is outside {@code [0, d)} or repeated, or none is given
     */
    static int[] checkColumns(int[] selected, int cols) {
        if (selected == null || selected.length == 0) {
            throw new IllegalArgumentException("no columns selected: keep at least one of the d=" + cols);
        }
        boolean[] seen = new boolean[cols];
        for (int c : selected) {
            if (c < 0 || c >= cols || seen[c]) {
                throw new IllegalArgumentException("column " + c + " is " + (c < 0 || c >= cols ? "outside [0, d="
                        + cols + ")" : "selected twice"));
            }
            seen[c] = true;
        }
        return selected.clone();
    }

    /**
     * @param from the first position
     * @param to one past the last position
     * @param rows n
     * @param minimum the fewest rows the range may hold
     * @throws IllegalArgumentException if {@code [from, to)} is not inside {@code [0, n)} or is too short
     */
    static void checkRange(long from, long to, long rows, long minimum) {
        if (from < 0 || to > rows || to - from < minimum) {
            throw new IllegalArgumentException("the rows " + from + ".." + (to - 1) + " are not " + minimum
                    + " or more of the n=" + rows + " rows");
        }
    }

    /**
     * Neighbour counts {@code c_i = #{k : ||x_i - x_k||_2 <= radius}} (self included), a self-join over the blocks:
     * with one block the engine's {@code neighbourCounts}; otherwise the engine's counts within each block plus
     * {@link #crossCounts} for each pair of blocks. Integer counts, so the order of the block pairs does not matter.
     *
     * @param radius the radius, finite and &gt;= 0
     * @return one count per row, in row order (n at most 2^31-1)
     */
    int[] neighbourCounts(double radius);

    /**
     * Adds the neighbours each row of {@code a} has in {@code b} to {@code ca} and vice versa, deciding each pair by
     * the direct sum {@code sum_c (a_c - b_c)^2 <= radius^2}: the sum the engine's counts fall back to near the
     * radius, and equal to their Gram-based value elsewhere far beyond its rounding, so the counts are the engine's.
     *
     * @param a rows
     * @param b other rows
     * @param radius the radius
     * @param ca counts of a's rows (added to)
     * @param cb counts of b's rows (added to)
     */
    static void crossCounts(RowBlockMatrix a, RowBlockMatrix b, double radius, int[] ca, int[] cb) {
        int d = a.cols();
        double r2 = radius * radius;
        double[] u = new double[d];
        double[] v = new double[d];
        for (int i = 0; i < a.rows(); i++) {
            a.copyRow(i, u, 0);
            for (int k = 0; k < b.rows(); k++) {
                b.copyRow(k, v, 0);
                double e = 0;
                for (int c = 0; c < d; c++) {
                    double t = u[c] - v[c];
                    e += t * t;
                }
                if (e <= r2) {
                    ca[i]++;
                    cb[k]++;
                }
            }
        }
    }

    /** Frees what this source holds beyond the rows it was derived from (a no-op in memory). */
    default void discard() {
    }

    /**
     * Folds a partial into a running sum in layout order: the first partial is taken as it is, the next added
     * element by element (the one rule both implementations use).
     *
     * @param acc the running sum, or null before the first partial
     * @param partial the next partial (may be reused as the sum)
     * @return the new running sum
     */
    static DMatrixRMaj fold(DMatrixRMaj acc, DMatrixRMaj partial) {
        if (acc == null) {
            return partial;
        }
        double[] a = acc.data;
        double[] p = partial.data;
        int len = acc.numRows * acc.numCols;
        for (int k = 0; k < len; k++) {
            a[k] += p[k];
        }
        return acc;
    }

    /**
     * The Gram partial of one block (divisor 1, or {@code divisor} when it is the only block).
     *
     * @param engine the engine
     * @param block the rows of the block
     * @param divisor the divisor applied here
     * @return the block's Gram
     */
    static DMatrixRMaj blockGram(ComputeEngine engine, RowBlockMatrix block, double divisor) {
        return engine.weightedGram(block, null, null, divisor);
    }

    /**
     * Scales a folded multi-block Gram by {@code 1/divisor} (the engine's own last step).
     *
     * @param sum the folded sum (modified)
     * @param divisor the divisor
     * @return sum
     */
    static DMatrixRMaj scaleGram(DMatrixRMaj sum, double divisor) {
        org.ejml.dense.row.CommonOps_DDRM.scale(1.0 / divisor, sum);
        return sum;
    }
}
