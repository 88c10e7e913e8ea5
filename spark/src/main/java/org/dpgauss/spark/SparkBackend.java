package org.dpgauss.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.ClusterBackend;
import org.dpgauss.rows.RowSource;

/**
 * The command line's {@code --master} mode on Spark (found through {@link java.util.ServiceLoader}). Parquet is read
 * by Spark and needs an id column; a CSV file with a header row is read by Spark when an id column is named;
 * otherwise a CSV or NPY file is read by this process, exactly as without {@code --master}, and each row's position
 * in the file is its id. The Spark session is created here (the Spark UI off) and stopped by {@link #close()}, unless one was
 * already running in this JVM, which is used and left running.
 */
public final class SparkBackend implements ClusterBackend {

    /** The id column given to rows read by this process (their position in the file). */
    static final String POSITION = "__dpgauss_row";

    private SparkSession session;
    private boolean ownSession;
    private SparkRows rows;
    private List<String> names;

    /** Creates the backend (the Spark session starts on {@link #open}). */
    public SparkBackend() {
    }

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public RowSource open(String master, Path input, List<String> columns, String idColumn, String engineName) {
        if (rows != null) {
            throw new IllegalStateException("this backend has already opened a table");
        }
        if (!Files.exists(input)) {
            throw new IllegalArgumentException(input + " does not exist");
        }
        String name = input.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean parquet = name.endsWith(".parquet") || Files.isDirectory(input);
        boolean csv = name.endsWith(".csv") || name.endsWith(".txt");
        boolean npy = name.endsWith(".npy");
        if (!parquet && !csv && !npy) {
            throw new IllegalArgumentException(input.getFileName() + ": --master reads Parquet (.parquet or a"
                    + " directory), CSV (.csv) or NPY (.npy)");
        }
        if (parquet && idColumn == null) {
            throw new IllegalArgumentException(input.getFileName() + " is Parquet, whose rows have no order of their"
                    + " own: name a column of unique ids with --id-column");
        }
        if (npy && idColumn != null) {
            throw new IllegalArgumentException(input.getFileName() + " is NPY, which has no named columns: the rows"
                    + " are ordered by their position in the file; leave out --id-column");
        }
        if (idColumn == null && columns != null) {
            throw new IllegalArgumentException("--columns selects named columns of a Parquet file or a CSV file read"
                    + " with --id-column; without --id-column every column of " + input.getFileName() + " is a value");
        }
        SparkSession.Builder b = SparkSession.builder().master(master).appName("dpgauss")
                .config("spark.ui.enabled", "false");
        if (master.startsWith("local")) {
            b.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1");
        }
        ownSession = SparkSession.getDefaultSession().isEmpty() && SparkSession.getActiveSession().isEmpty();
        session = b.getOrCreate(); // an application's running session is used (and left running)
        session.sparkContext().setLogLevel("WARN");
        Dataset<Row> table;
        String id = idColumn;
        List<String> values = columns;
        if (parquet) {
            table = session.read().parquet(input.toString());
        } else if (idColumn != null) {
            table = session.read().option("header", "true").option("inferSchema", "true").csv(input.toString());
        } else {
            RowBlockMatrix m;
            try {
                m = DataReader.read(input);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            table = positional(m);
            id = POSITION;
        }
        if (values == null) {
            values = new ArrayList<>();
            for (String f : table.schema().fieldNames()) {
                if (!f.equals(id)) {
                    values.add(f);
                }
            }
        }
        rows = SparkRows.load(table, values, id, null, 0, engineName);
        names = List.copyOf(values);
        return rows;
    }

    @Override
    public List<String> columnNames() {
        if (names == null) {
            throw new IllegalStateException("no table is open");
        }
        return names;
    }

    /** The rows of a file read here, with their position as the id. */
    private Dataset<Row> positional(RowBlockMatrix m) {
        int d = m.cols();
        List<StructField> fields = new ArrayList<>();
        fields.add(DataTypes.createStructField(POSITION, DataTypes.LongType, false));
        for (int j = 0; j < d; j++) {
            fields.add(DataTypes.createStructField("c" + (j + 1), DataTypes.DoubleType, false));
        }
        List<Row> list = new ArrayList<>(m.rows());
        double[] row = new double[d];
        for (int i = 0; i < m.rows(); i++) {
            m.copyRow(i, row, 0);
            Object[] v = new Object[d + 1];
            v[0] = (long) i;
            for (int j = 0; j < d; j++) {
                v[j + 1] = row[j];
            }
            list.add(RowFactory.create(v));
        }
        return session.createDataFrame(list, DataTypes.createStructType(fields));
    }

    @Override
    public void close() {
        if (rows != null) {
            rows.unpersist();
            rows = null;
            names = null;
        }
        if (session != null && ownSession) {
            session.stop();
        }
        session = null;
    }
}
