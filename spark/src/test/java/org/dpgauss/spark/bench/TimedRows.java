package org.dpgauss.spark.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.BlockPass;
import org.dpgauss.rows.ExactColumnSums;
import org.dpgauss.rows.PartialFold;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowTest;
import org.ejml.data.DMatrixRMaj;

/**
 * A row source that logs every pass it runs (and every re-blocking shuffle): which rows (a tag: the source's,
 * or "pairs" / "slice" for re-blocked rows), which kind of pass, its time and what Spark reported it moved.
 */
final class TimedRows implements RowSource {

    /** One logged pass. */
    record Pass(String tag, String kind, double seconds, double cpuSeconds, SparkBytes.Moved moved) {
        String json() {
            return String.format(Locale.ROOT, "{\"rows\":\"%s\",\"kind\":\"%s\",\"s\":%.4f,\"cpu_s\":%.4f,%s}", tag,
                    kind, seconds, cpuSeconds, moved.json());
        }
    }

    private final RowSource inner;
    private final String tag;
    private final List<Pass> log;
    private final SparkBytes bytes;

    TimedRows(RowSource inner, String tag, SparkBytes bytes) {
        this(inner, tag, new ArrayList<>(), bytes);
    }

    private TimedRows(RowSource inner, String tag, List<Pass> log, SparkBytes bytes) {
        this.inner = inner;
        this.tag = tag;
        this.log = log;
        this.bytes = bytes;
    }

    /** @return the passes run so far, in order (shared by every source derived from this one) */
    List<Pass> log() {
        return log;
    }

    /** @return the total seconds of the logged passes */
    double seconds() {
        return log.stream().mapToDouble(Pass::seconds).sum();
    }

    private <T> T timed(String kind, Supplier<T> pass) {
        SparkBytes.Moved before = bytes.snapshot();
        long t = System.nanoTime();
        long c = cpuNanos();
        T r = pass.get();
        double s = (System.nanoTime() - t) * 1e-9;
        double cpu = (cpuNanos() - c) * 1e-9;
        log.add(new Pass(tag, kind, s, cpu, bytes.snapshot().minus(before)));
        return r;
    }

    /** @return this JVM's CPU time (all threads: the driver and the local executors), nanoseconds */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    @Override
    public long rows() {
        return inner.rows();
    }

    @Override
    public int cols() {
        return inner.cols();
    }

    @Override
    public RowLayout layout() {
        return inner.layout();
    }

    @Override
    public RowSource map(BlockMap f) {
        return new TimedRows(inner.map(f), tag, log, bytes);
    }

    @Override
    public RowSource map(BlockMap f, int cols) {
        return new TimedRows(inner.map(f, cols), tag, log, bytes);
    }

    @Override
    public DMatrixRMaj gram(double divisor) {
        return timed("gram", () -> inner.gram(divisor));
    }

    @Override
    public DMatrixRMaj gram(org.dpgauss.linalg.RowChunkMap f, double divisor) {
        return timed("mapped-gram", () -> inner.gram(f, divisor));
    }

    @Override
    public DMatrixRMaj gaussianProjection(int r, ChaCha20 generator) {
        return timed("projection", () -> inner.gaussianProjection(r, generator));
    }

    @Override
    public ExactColumnSums exactColumnSums() {
        return timed("column-sums", inner::exactColumnSums);
    }

    @Override
    public long firstRejected(RowTest test) {
        return timed("first-rejected", () -> inner.firstRejected(test));
    }

    @Override
    public <P> P reduce(BlockPass<P> pass, PartialFold<P> fold) {
        return timed("reduce", () -> inner.reduce(pass, fold));
    }

    @Override
    public RowSource pairs(long from, long to) {
        return new TimedRows(timed("pairing-shuffle", () -> inner.pairs(from, to)), "pairs", log, bytes);
    }

    @Override
    public RowSource slice(long from, long to) {
        return new TimedRows(timed("slice-shuffle", () -> inner.slice(from, to)), "slice", log, bytes);
    }

    @Override
    public <P> P reduce(double[] perRow, org.dpgauss.rows.BlockValuesPass<P> pass, PartialFold<P> fold) {
        return timed("reduce", () -> inner.reduce(perRow, pass, fold));
    }

    @Override
    public RowSource select(int[] positions, RowLayout to) {
        return new TimedRows(timed("select-shuffle", () -> inner.select(positions, to)), "select", log, bytes);
    }

    @Override
    public RowSource columns(int[] selected) {
        return new TimedRows(timed("columns", () -> inner.columns(selected)), "columns", log, bytes);
    }

    @Override
    public DMatrixRMaj[] groupGrams(int[] order, int groupSize) {
        return timed("group-grams", () -> inner.groupGrams(order, groupSize));
    }

    @Override
    public int[] neighbourCounts(double radius) {
        return timed("self-join", () -> inner.neighbourCounts(radius));
    }

    @Override
    public void discard() {
        inner.discard();
    }
}
