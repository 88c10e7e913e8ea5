package org.dpgauss.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.rows.ClusterBackend;
import org.dpgauss.rows.RowReleases;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
import picocli.CommandLine.Option;

/**
 * {@code --master}, {@code --columns}, {@code --id-column}: run a data command's row passes on a cluster
 * (docs/spark.md). The backend is found at run time ({@link ClusterBackend}, provided by the dpgauss-spark module,
 * which {@code ./dpgauss} puts on the class path when it sees {@code --master}); without {@code --master} nothing
 * here loads.
 */
final class ClusterOptions {

    @Option(names = "--master", paramLabel = "URL",
            description = "Run the row passes on Spark at this master URL (e.g. local[2], spark://host:7077): the "
                    + "release is the one computed without it. Reads Parquet, CSV or NPY (docs/spark.md).")
    String master;

    @Option(names = "--columns", split = ",", paramLabel = "c1,c2,..",
            description = "With --master and --id-column: the value columns of a Parquet file or of a CSV file with a "
                    + "header row, in order (default: every column but the id).")
    List<String> columns;

    @Option(names = "--id-column", paramLabel = "NAME",
            description = "With --master: a column of ids that orders the rows (required for Parquet; rows that "
                    + "share an id are ordered by their values). Without it a CSV or NPY file is read by this process and its"
                    + " rows are ordered by position.")
    String idColumn;

    @Option(names = "--executor-engine", paramLabel = "auto|gpu|cpu-openblas|cpu-ejml",
            description = "With --master: the compute engine the executors run (default: the engine this process "
                    + "runs, which gives the release computed without --master bit for bit). auto: each task on the "
                    + "GPU Spark assigned it where it can run, else the CPU; on GPU executors the release then agrees "
                    + "with the CPU one to rounding, not bit for bit.")
    String executorEngine;

    /** The engine names executors accept (org.dpgauss.spark.ExecutorEngines). */
    static final List<String> EXECUTOR_ENGINES = List.of("auto", "gpu", "cpu-openblas", "cpu-ejml");

    /** @return whether the command runs on a cluster */
    boolean active() {
        if (master == null && (columns != null || idColumn != null)) {
            throw new IllegalArgumentException("--columns and --id-column select a table's columns on a cluster:"
                    + " they need --master; on one machine every column of --input is used: write the columns you"
                    + " want to a file of their own first (e.g. cut -d, -f1,3 X.csv > X13.csv)");
        }
        if (master == null && executorEngine != null) {
            throw new IllegalArgumentException("--executor-engine chooses the engine of a cluster's executors: it"
                    + " needs --master");
        }
        if (executorEngine != null && !EXECUTOR_ENGINES.contains(executorEngine)) {
            throw new IllegalArgumentException("--executor-engine " + executorEngine + " is not one of "
                    + String.join(", ", EXECUTOR_ENGINES));
        }
        return master != null;
    }

    /**
     * Refuses, before anything is read, a mechanism whose data passes do not run on a cluster.
     *
     * @param m the mechanism
     * @param what how the command names it
     * @return the row mechanism
     */
    static RowSourceMechanism rowMechanism(PrivateMechanism m, String what) {
        if (!(m instanceof RowSourceMechanism)) {
            throw new IllegalArgumentException(what + " does not run with --master: it runs as row passes only for"
                    + " mean (every method), sample, second-moment (every method), project (every wrapper), pca, regress"
                    + " and covariance"
                    + " (docs/spark.md)");
        }
        return (RowSourceMechanism) m;
    }

    /** A table opened on a cluster; closing it frees the rows and disconnects. */
    static final class Table implements AutoCloseable {
        private final ClusterBackend backend;
        final RowSource rows;
        /** The engine the executors run (a public choice, stated in every release). */
        final String executorEngine;

        private Table(ClusterBackend backend, RowSource rows, String executorEngine) {
            this.backend = backend;
            this.rows = rows;
            this.executorEngine = executorEngine;
        }

        /** @return the names of the table's value columns, in order (public: the schema) */
        List<String> columnNames() {
            return backend.columnNames();
        }

        @Override
        public void close() {
            backend.close();
        }
    }

    /**
     * Opens the input on the cluster.
     *
     * @param context the release context (its engine is the one the executors run unless --executor-engine says)
     * @param input the table
     * @return the table
     */
    Table open(ReleaseContext context, Path input) {
        ClusterBackend backend = ServiceLoader.load(ClusterBackend.class).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--master needs the dpgauss-spark module and Spark on"
                        + " the class path: run through ./dpgauss, which builds them on first use (docs/spark.md)"));
        String engine = executorEngine != null ? executorEngine : context.engine().name();
        try {
            return new Table(backend, backend.open(master, input, columns, idColumn, engine), engine);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /**
     * The shape of an opened table.
     *
     * @param t the table
     * @return its n and d
     */
    static Main.Shape shape(Table t) {
        if (t.rows.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the mechanisms state their parameters for at most 2^31-1 rows");
        }
        return new Main.Shape((int) t.rows.rows(), t.rows.cols());
    }

    /**
     * The number of value columns of the table from public facts only, before it is opened (a release charged to a
     * ledger is stated from it before any Spark job): the count of {@code --columns}; else a CSV or NPY file's
     * schema ({@link org.dpgauss.io.DataReader#dimension}), less the id column of a CSV file read with
     * {@code --id-column}. A Parquet table without {@code --columns} is refused: its schema is read by Spark.
     *
     * @param input the table
     * @return d
     * @throws java.io.IOException if the file's schema cannot be read
     */
    int publicDimension(Path input) throws java.io.IOException {
        if (columns != null) {
            return columns.size();
        }
        String name = input.getFileName() == null ? "" : input.getFileName().toString().toLowerCase(
                java.util.Locale.ROOT);
        if (name.endsWith(".npy") || (name.endsWith(".csv") && idColumn == null)) {
            return org.dpgauss.io.DataReader.dimension(input);
        }
        if (name.endsWith(".csv")) {
            return org.dpgauss.io.DataReader.dimension(input) - 1;
        }
        throw new IllegalArgumentException("--ledger with --master on " + input.getFileName() + " needs --columns"
                + " c1,c2,..: the release is charged before the table is opened, so its number of columns must be"
                + " public (--columns, or the header of a CSV or NPY file)");
    }

    /** Runs the release on the opened table. */
    static PrivateRelease release(RowSourceMechanism m, Table t, double delta, ReleaseContext context) {
        return RowReleases.run(m, t.rows, delta, context, ClusterBackend.where(t.executorEngine));
    }
}
