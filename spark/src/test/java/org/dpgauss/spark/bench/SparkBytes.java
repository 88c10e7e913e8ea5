package org.dpgauss.spark.bench;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * What Spark's task metrics say the jobs moved: serialized task results (the partials sent to the driver), shuffle
 * bytes written, and the number of tasks. Read after the listener bus has delivered every event.
 */
final class SparkBytes extends SparkListener {

    /** Bytes and tasks between two snapshots. */
    record Moved(long resultBytes, long shuffleBytes, long tasks) {
        Moved minus(Moved o) {
            return new Moved(resultBytes - o.resultBytes, shuffleBytes - o.shuffleBytes, tasks - o.tasks);
        }

        String json() {
            return String.format(Locale.ROOT, "\"result_bytes\":%d,\"shuffle_write_bytes\":%d,\"tasks\":%d",
                    resultBytes, shuffleBytes, tasks);
        }
    }

    private final SparkContext sc;
    private final AtomicLong result = new AtomicLong();
    private final AtomicLong shuffle = new AtomicLong();
    private final AtomicLong tasks = new AtomicLong();

    private SparkBytes(SparkContext sc) {
        this.sc = sc;
    }

    static SparkBytes attach(SparkContext sc) {
        SparkBytes b = new SparkBytes(sc);
        sc.addSparkListener(b);
        return b;
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
        TaskMetrics m = end.taskMetrics();
        tasks.incrementAndGet();
        if (m != null) {
            result.addAndGet(m.resultSize());
            shuffle.addAndGet(m.shuffleWriteMetrics().bytesWritten());
        }
    }

    Moved snapshot() {
        try {
            sc.listenerBus().waitUntilEmpty();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Spark's listener bus did not drain", e);
        }
        return new Moved(result.get(), shuffle.get(), tasks.get());
    }
}
