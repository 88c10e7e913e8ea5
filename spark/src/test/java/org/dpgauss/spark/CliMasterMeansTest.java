package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.dpgauss.cli.Main;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mean --method anisotropic} without a covariance proxy, {@code mean --method coordinate} and
 * {@code second-moment --method subsample-aggregate} with {@code --master} print the release the command prints
 * without it (Parquet ordered by an id column, rows stored shuffled, against the CSV read in memory). The
 * 18000 rows are the fewest round number Algorithm 2's feasibility rule accepts at d = 3, epsilon = 8, delta = 1e-3,
 * beta = 0.5; the first coordinate's variance is far above the others', so both of its averaging calls run.
 */
class CliMasterMeansTest {

    private static final int N = 18000;
    private static final int D = 3;
    private static final double[][] X = data();

    @TempDir
    static Path dir;

    private static double[][] data() {
        Random r = new Random(81);
        double[] sd = {100, 1, 0.3};
        double[][] x = new double[N][D];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < D; j++) {
                x[i][j] = 2 * j + 1 + sd[j] * r.nextGaussian();
            }
        }
        return x;
    }

    @BeforeAll
    static void files() throws IOException {
        StringBuilder csv = new StringBuilder();
        for (double[] r : X) {
            for (int j = 0; j < D; j++) {
                csv.append(j == 0 ? "" : ",").append(r[j]); // Double.toString round-trips
            }
            csv.append('\n');
        }
        Files.writeString(dir.resolve("x.csv"), csv);
        TestSpark.table(X, 3, 17).write().parquet(dir.resolve("x.parquet").toString());
    }

    private static String release(String input, List<String> command, String... extra) {
        List<String> a = new ArrayList<>(command);
        a.addAll(List.of("--input", dir.resolve(input).toString(), "--insecure-seed", "13", "--json", "--engine",
                "ejml"));
        a.addAll(Arrays.asList(extra));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(a.toArray(new String[0]), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        return out.toString().replaceAll(",\"input\":\"[^\"]*\"", "");
    }

    /** The release on Spark, less the one parameter only a Spark release has (checked here). */
    private static String parquet(List<String> command) {
        String r = release("x.parquet", command, "--master", "local[2]", "--id-column", "id", "--columns",
                "x1,x2,x3");
        org.junit.jupiter.api.Assertions.assertTrue(r.contains(",\"executorEngine\":\"cpu-ejml\""), r);
        return r.replaceAll(",\"executorEngine\":\"[^\"]*\"", "");
    }

    @Test
    void anisotropicMeanWithoutAProxy() {
        List<String> command = List.of("mean", "--method", "anisotropic", "--epsilon", "8", "--delta", "1e-3",
                "--beta", "0.5");
        String local = release("x.csv", command);
        assertTrue(local.contains("\"status\":\"PASS\"") && local.contains("mean.anisotropic-unknown-covariance"),
                local);
        assertEquals(local, parquet(command));
        // folklore's lambda needs the proxy's trace and norm: without one it is refused, with --master as without
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"mean", "--method", "folklore", "--epsilon", "8", "--input",
            dir.resolve("x.parquet").toString(), "--master", "local[2]", "--id-column", "id"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(1, code);
        assertTrue(err.toString().contains("--method folklore needs --covariance FILE or --variances"), err.toString());
    }

    /**
     * {@code mean --bounds} (issue 27): the auto choice (made from n, d, the bounds and the budget) and the box
     * mean's clamped exact sums on Spark print the release printed without it; rows outside the box are clamped.
     */
    @Test
    void boxMeanWithAutoChoice() {
        for (String method : new String[] {"auto", "box"}) {
            List<String> command = List.of("mean", "--method", method, "--bounds", "-5:5", "--epsilon", "1");
            String local = release("x.csv", command);
            assertTrue(local.contains("\"status\":\"PASS\"") && local.contains("mean.box"), local);
            assertEquals(local, parquet(command));
        }
    }

    /** {@code mean --method coordinate} (bin counts per coordinate, then exact sums of the clipped rows). */
    @Test
    void coordinateWiseMean() {
        List<String> command = List.of("mean", "--method", "coordinate", "--variances", "1e4,1,0.09", "--epsilon",
                "2");
        String local = release("x.csv", command);
        assertTrue(local.contains("\"status\":\"PASS\"") && local.contains("mean.coordinate"), local);
        assertEquals(local, parquet(command));
    }

    /**
     * {@code second-moment --method subsample-aggregate} (the partition drawn by the driver, one shuffle to the
     * groups): 180 groups of 100 rows, uncertified at this size.
     */
    @Test
    void subsampleAndAggregate() {
        List<String> command = List.of("second-moment", "--method", "subsample-aggregate", "--clip", "500", "--rho",
                "1", "--option", "group-size=100", "--option", "uncertified=1");
        String local = release("x.csv", command);
        assertTrue(local.contains("\"status\":\"PASS\"") && local.contains("subsample"), local);
        assertEquals(local, parquet(command));
    }
}
