package org.dpgauss.rows;

import java.io.Serializable;

/**
 * How rows, in their data-independent order (row 0, 1, ..., n-1), are cut into blocks and blocks into groups: block
 * {@code b} holds rows {@code [b B, (b+1) B)}, group {@code g} holds blocks {@code [g K, (g+1) K)}. A row pass
 * computes one partial result per block with a {@link org.dpgauss.engine.ComputeEngine} primitive, adds the partials
 * of a group in block order (a left fold), then adds the group sums in group order; the layout is public (a function
 * of d, or chosen by the caller), so every implementation of {@link RowSource} with the same layout returns the same
 * bits. A group is the unit a cluster task returns (one partial per group travels to the driver). Immutable.
 */
public final class RowLayout implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Doubles per block in the default layout: 2^22 (32 MiB). */
    public static final int DEFAULT_BLOCK_ELEMENTS = 1 << 22;
    /** Rows per group in the default layout: at least this many times d (a group's d x d partial is then at most
     * 1/256 of its rows' size). */
    public static final int DEFAULT_GROUP_ROWS_PER_COLUMN = 256;

    private final int blockRows;
    private final int blocksPerGroup;

    private RowLayout(int blockRows, int blocksPerGroup) {
        this.blockRows = blockRows;
        this.blocksPerGroup = blocksPerGroup;
    }

    /**
     * The default layout for d columns: blocks of about {@value #DEFAULT_BLOCK_ELEMENTS} doubles (a multiple of 512
     * rows, at least 512) and the fewest blocks per group that hold {@value #DEFAULT_GROUP_ROWS_PER_COLUMN} d rows
     * (d = 50: one block of 83456 rows; d = 500: 16 blocks of 8192; d = 1000: 63 blocks of 4096). A group is the
     * unit of parallel work and of transfer to the driver.
     *
     * @param d the number of columns, at least 1
     * @return the layout
     */
    public static RowLayout forDimension(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " columns is outside [1, 2^31)");
        }
        int rows = Math.max(512, DEFAULT_BLOCK_ELEMENTS / d / 512 * 512);
        long groupRows = (long) DEFAULT_GROUP_ROWS_PER_COLUMN * d;
        int blocks = (int) Math.max(1, (groupRows + rows - 1) / rows);
        return new RowLayout(rows, blocks);
    }

    /**
     * @param blockRows rows per block B, at least 1
     * @param blocksPerGroup blocks per group K, at least 1
     * @return the layout
     */
    public static RowLayout of(int blockRows, int blocksPerGroup) {
        if (blockRows < 1) {
            throw new IllegalArgumentException("blockRows=" + blockRows + " is outside [1, 2^31)");
        }
        if (blocksPerGroup < 1) {
            throw new IllegalArgumentException("blocksPerGroup=" + blocksPerGroup + " is outside [1, 2^31)");
        }
        return new RowLayout(blockRows, blocksPerGroup);
    }

    /** @return rows per block B */
    public int blockRows() {
        return blockRows;
    }

    /** @return blocks per group K */
    public int blocksPerGroup() {
        return blocksPerGroup;
    }

    /**
     * @param n the number of rows
     * @return the number of blocks for n rows
     */
    public int blockCount(long n) {
        long nb = (n + blockRows - 1) / blockRows;
        if (nb > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("n=" + n + " rows need more than 2^31 blocks of " + blockRows + " rows");
        }
        return (int) nb;
    }

    /**
     * @param block a block index
     * @return the index of the group holding it
     */
    public int groupOf(int block) {
        return block / blocksPerGroup;
    }

    /**
     * @param rank a row's position in the data-independent order
     * @return the index of the block holding it
     */
    public int blockOf(long rank) {
        return (int) (rank / blockRows);
    }

    /**
     * @param block a block index
     * @return the position of its first row
     */
    public long blockStart(int block) {
        return (long) block * blockRows;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowLayout && ((RowLayout) o).blockRows == blockRows
                && ((RowLayout) o).blocksPerGroup == blocksPerGroup;
    }

    @Override
    public int hashCode() {
        return 31 * blockRows + blocksPerGroup;
    }

    @Override
    public String toString() {
        return "blocks of " + blockRows + " rows, " + blocksPerGroup + " blocks per group";
    }
}
