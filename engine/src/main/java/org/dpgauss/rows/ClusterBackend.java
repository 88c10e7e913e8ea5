package org.dpgauss.rows;

import java.nio.file.Path;
import java.util.List;

/**
 * Rows held by a cluster, for the command line's {@code --master} mode: a service found at run time
 * ({@link java.util.ServiceLoader}), so that the library and the command line do not depend on the cluster's
 * libraries. The dpgauss-spark module provides one.
 */
public interface ClusterBackend extends AutoCloseable {

    /**
     * The public parameter of a release computed on a cluster that names the engine its executors were asked to run
     * ({@code cpu-ejml}, {@code cpu-openblas}, {@code gpu} or {@code auto}): a public choice, made before the data are
     * read.
     */
    String EXECUTOR_ENGINE = "executorEngine";

    /**
     * @param engineName the engine the executors run
     * @return the public parameters a release computed there adds to its own
     */
    static org.dpgauss.release.PublicParameters where(String engineName) {
        return org.dpgauss.release.PublicParameters.builder().put(EXECUTOR_ENGINE, engineName).build();
    }

    /** @return the backend's name, e.g. {@code spark} */
    String name();

    /**
     * Connects to the cluster (once) and opens a table as rows: ordered by the id column, every value checked,
     * cached on the cluster.
     *
     * @param master the cluster's URL, e.g. {@code local[2]}
     * @param input a Parquet file or directory, a CSV file or an NPY file
     * @param columns the value columns, in order (null: every column but the id)
     * @param idColumn the column of unique ids that orders the rows (null: the row's position in a CSV or NPY file,
     *        which is then read by this process)
     * @param engineName the compute engine the cluster's executors run (the caller's, for the same bits)
     * @return the rows, in the default layout for their dimension
     * @throws IllegalArgumentException naming the column, row or rule when the table cannot be used
     */
    RowSource open(String master, Path input, List<String> columns, String idColumn, String engineName);

    /**
     * The names of the opened table's value columns, in the order of the rows' columns: the public schema, e.g. for
     * a command that names a column (a regression's target). A file read by this process (no id column) has none
     * here: its columns are named {@code c1..cd}.
     *
     * @return the names, one per column of the rows {@link #open} returned
     * @throws IllegalStateException before a table is opened
     */
    List<String> columnNames();

    /** Frees the cached rows and disconnects. */
    @Override
    void close();
}
