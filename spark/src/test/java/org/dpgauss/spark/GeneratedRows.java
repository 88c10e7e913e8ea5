package org.dpgauss.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.dpgauss.rows.RowLayout;

/**
 * Synthetic rows for the scaling benchmark whose blocks are generated inside the tasks from a seed and the block
 * index: already in id order (no sort), never cached, so every pass regenerates its rows and a table far larger than
 * the machine's memory can be passed over. Entries are independent, approximately N(0, scale^2) (scale times a
 * uniform pick from a fixed table of 2^16 Gaussian draws); block b's generator is seeded by a 64-bit mix of (seed,
 * b), so a block (and a task retry) always has the same rows, whatever the partitioning. One Spark partition per
 * group: a task holds one group at a time.
 */
public final class GeneratedRows {

    private GeneratedRows() {
    }

    /**
     * @param sc the Spark context
     * @param n rows, at least 1
     * @param d columns, at least 1
     * @param scale the standard deviation of every entry
     * @param seed the seed
     * @param layout the layout (null: {@link RowLayout#forDimension})
     * @param engineName the engine executors run
     * @return the rows, one partition per group
     */
    public static SparkRows gaussian(JavaSparkContext sc, long n, int d, double scale, long seed, RowLayout layout,
            String engineName) {
        if (n < 1 || d < 1) {
            throw new IllegalArgumentException("n=" + n + ", d=" + d + ": both must be at least 1");
        }
        RowLayout lay = layout != null ? layout : RowLayout.forDimension(d);
        int nb = lay.blockCount(n);
        int groups = lay.groupOf(nb - 1) + 1;
        List<Integer> ids = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            ids.add(g);
        }
        JavaRDD<RowBlockData> blocks = sc.parallelize(ids, groups).flatMap(g -> new Iterator<RowBlockData>() {
            private int b = g * lay.blocksPerGroup();
            private final int end = Math.min(nb, (g + 1) * lay.blocksPerGroup());

            @Override
            public boolean hasNext() {
                return b < end;
            }

            @Override
            public RowBlockData next() {
                if (b >= end) {
                    throw new NoSuchElementException();
                }
                RowBlockData out = block(n, d, scale, seed, lay, b);
                b++;
                return out;
            }
        });
        return SparkRows.ofBlocks(blocks, n, d, lay, engineName);
    }

    /**
     * All the rows, on the caller's machine (tests at small n).
     *
     * @return n x d rows, the rows of {@link #gaussian} with the same arguments
     */
    public static double[][] rows(long n, int d, double scale, long seed, RowLayout layout) {
        RowLayout lay = layout != null ? layout : RowLayout.forDimension(d);
        double[][] x = new double[Math.toIntExact(n)][d];
        for (int b = 0; b < lay.blockCount(n); b++) {
            RowBlockData blk = block(n, d, scale, seed, lay, b);
            long start = lay.blockStart(b);
            for (int i = 0; i < blk.rows; i++) {
                System.arraycopy(blk.data, i * d, x[(int) (start + i)], 0, d);
            }
        }
        return x;
    }

    /** Block b: rows b B .. min(n, (b+1) B) - 1, row-major. */
    static RowBlockData block(long n, int d, double scale, long seed, RowLayout layout, int b) {
        int rows = (int) Math.min(layout.blockRows(), n - layout.blockStart(b));
        SplittableRandom r = new SplittableRandom(mix(seed ^ mix(b + 1L)));
        double[] data = new double[rows * d];
        int t = 0;
        while (t < data.length) { // four 16-bit table indices per 64 random bits
            long bits = r.nextLong();
            for (int q = 0; q < 4 && t < data.length; q++, t++) {
                data[t] = scale * TABLE[(int) (bits >>> (16 * q)) & 0xFFFF];
            }
        }
        return new RowBlockData(b, rows, data);
    }

    /**
     * 2^16 standard Gaussian draws (fixed seed): an entry is a uniformly chosen one, so generating costs a table
     * look-up rather than a Gaussian draw (the draws would otherwise cost more than a Gram pass at d = 50); the
     * entries' law is the empirical law of the table, variance within 1% of 1.
     */
    private static final double[] TABLE = table();

    private static double[] table() {
        SplittableRandom r = new SplittableRandom(0x5EEDL);
        double[] t = new double[1 << 16];
        for (int i = 0; i < t.length; i++) {
            t[i] = r.nextGaussian();
        }
        return t;
    }

    /**
     * A 64-bit finaliser (Stafford's variant 13): nearby (seed, block) give unrelated generator states, where seeds
     * a fixed step apart would give overlapping SplittableRandom streams.
     */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
