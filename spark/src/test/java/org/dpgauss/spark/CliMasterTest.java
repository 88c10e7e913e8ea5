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
import org.dpgauss.cli.Main;
import org.dpgauss.io.NpyWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's {@code --master} mode prints the release the command prints without it, from Parquet (ordered
 * by an id column, rows stored shuffled), CSV and NPY; and it refuses what it cannot run.
 */
class CliMasterTest {

    private static final int D = 4;
    private static final double[][] X = TestSpark.gaussian(800, D, 21);

    @TempDir
    static Path dir;

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
        NpyWriter.write(dir.resolve("x.npy"), X);
        TestSpark.table(X, 3, 99).write().parquet(dir.resolve("x.parquet").toString());
    }

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    private static String[] args(String input, List<String> command, String... extra) {
        List<String> a = new ArrayList<>(command);
        a.addAll(List.of("--input", dir.resolve(input).toString(), "--insecure-seed", "11", "--json", "--engine",
                "ejml"));
        a.addAll(Arrays.asList(extra));
        return a.toArray(new String[0]);
    }

    /**
     * The JSON without its input path and without the public parameter that says where it was computed (checked by
     * {@link #theReleaseNamesTheExecutorsEngine}).
     */
    private static String release(String[] r) {
        assertEquals("0", r[0], r[2]);
        return r[1].replaceAll(",\"input\":\"[^\"]*\"", "").replaceAll(",\"executorEngine\":\"[^\"]*\"", "");
    }

    private static String local(List<String> command) {
        return local(command, "x.csv");
    }

    private static String local(List<String> command, String input) {
        String local = release(run(args(input, command)));
        assertTrue(local.contains("\"status\":\"PASS\""), local);
        return local;
    }

    private static String parquet(List<String> command) {
        return release(run(args("x.parquet", command, "--master", "local[2]", "--id-column", "id", "--columns",
                "x1,x2,x3,x4")));
    }

    @Test
    void clippedMeanFromParquetNpyAndCsv() {
        List<String> command = List.of("mean", "--clip", "1", "--rho", "0.5");
        String local = local(command);
        assertEquals(local, parquet(command), "Parquet");
        assertEquals(local, release(run(args("x.npy", command, "--master", "local[2]"))), "NPY");
        assertEquals(local, release(run(args("x.csv", command, "--master", "local[2]"))), "CSV");
        // executors without a GPU: auto runs the CPU engine this process runs, so the same bits
        assertEquals(local, release(run(args("x.npy", command, "--master", "local[2]", "--executor-engine", "auto"))),
                "--executor-engine auto");
    }

    /**
     * {@code mean --clip auto}, {@code mean --method anisotropic} with a proxy (the neighbour-count self-join) and
     * {@code sample} (mean part and pairs cut by id order) print the local release.
     */
    @Test
    void autoClipAndSamplerFromParquet() {
        List<String> auto = List.of("mean", "--clip", "auto", "--rho", "1");
        assertEquals(local(auto), parquet(auto), "mean --clip auto");
        List<String> anisotropic = List.of("mean", "--method", "anisotropic", "--variances",
                "0.04,0.1225,0.25,0.4225", "--epsilon", "8");
        assertEquals(local(anisotropic), parquet(anisotropic), "mean --method anisotropic");
        List<String> sample = List.of("sample", "--epsilon", "1", "--delta", "0.1", "--constants", "n1=500,n2=150");
        String[] here = run(args("x.csv", sample));
        String[] there = run(args("x.parquet", sample, "--master", "local[2]", "--id-column", "id", "--columns",
                "x1,x2,x3,x4"));
        assertEquals(here[0], there[0], there[2]);
        assertTrue(here[1].contains("sample.unbounded-gaussian"), here[1] + here[2]);
        assertEquals(here[1].replaceAll(",\"input\":\"[^\"]*\"", ""), there[1].replaceAll(",\"input\":\"[^\"]*\"", "")
                .replaceAll(",\"executorEngine\":\"[^\"]*\"", ""), "sample");
    }

    @Test
    void coinPressFromParquet() {
        List<String> command = List.of("second-moment", "--method", "coinpress", "--clip", "1.5", "--rho", "0.5");
        assertEquals(local(command), parquet(command));
    }

    /** {@code recursive} without {@code --min-eigenvalue}: Algorithm 4's random groups, then the recursion. */
    @Test
    void recursiveWithPrivateMinEigenvalueFromParquet() {
        List<String> command = List.of("second-moment", "--method", "recursive", "--clip", "1.5", "--rho", "0.5",
                "--lambda-epsilon", "4", "--lambda-group-size", "10");
        String local = local(command);
        assertTrue(local.contains("\"lambdaGroupSize\":10"), local);
        assertEquals(local, parquet(command));
    }

    /**
     * {@code project --wrapper ptr} (a Gram for lambda_min, then the projection) and {@code --wrapper poisson} (the
     * sample moved by a selection) print the local release and write the same matrix.
     */
    @Test
    void projectionWrappersFromParquet() throws IOException {
        List<List<String>> commands = List.of(
                List.of("project", "--wrapper", "ptr", "--ptr-noise", "5", "--rank", "2", "--epsilon", "2",
                        "--delta", "1e-6", "--row-bound", "1", "--clip-rows"),
                List.of("project", "--wrapper", "poisson", "--q", "0.4", "--rank", "2", "--epsilon", "1",
                        "--delta", "1e-6", "--row-bound", "5"));
        for (List<String> command : commands) {
            List<String> here = new ArrayList<>(command);
            here.addAll(List.of("--output", dir.resolve("here.npy").toString()));
            List<String> there = new ArrayList<>(command);
            there.addAll(List.of("--output", dir.resolve("there.npy").toString()));
            String local = local(here).replaceAll(",\"output\":\"[^\"]*\"", "");
            assertTrue(local.contains("projection." + command.get(2)), local);
            assertEquals(local, parquet(there).replaceAll(",\"output\":\"[^\"]*\"", ""), command.get(2));
            assertTrue(Arrays.equals(Files.readAllBytes(dir.resolve("here.npy")),
                    Files.readAllBytes(dir.resolve("there.npy"))), command.get(2) + ": the written matrix");
        }
    }

    /**
     * {@code pca} (a private centre, and {@code --method auto}: the planner's choice from the table's n and d),
     * {@code covariance} (one {@code --centre} value for every column of the table) and {@code regress} print the
     * local release; the regression's target is a name among the value columns of a table Spark reads by name, with
     * or without {@code --columns} (a file read by this process names it as without {@code --master}).
     */
    @Test
    void pcaCovarianceAndRegressionFromParquet() {
        List<String> pca = List.of("pca", "--k", "2", "--radius", "2", "--rho", "0.5", "--method", "auto");
        String local = local(pca);
        assertTrue(local.contains("\"components\""), local);
        assertEquals(local, parquet(pca), "pca");
        List<String> cov = List.of("covariance", "--radius", "2", "--centre", "0.1", "--rho", "0.5", "--psd");
        local = local(cov);
        assertTrue(local.contains("\"centre\":[0.1,0.1,0.1,0.1]"), local);
        assertEquals(local, parquet(cov), "covariance");
        List<String> bounds = List.of("--feature-bound", "1.5", "--target-bound", "1.5", "--rho", "0.5");
        List<String> byIndex = new ArrayList<>(List.of("regress", "--target", "3"));
        byIndex.addAll(bounds);
        List<String> byName = new ArrayList<>(List.of("regress", "--target", "x4"));
        byName.addAll(bounds);
        String reg = local(byIndex);
        assertTrue(reg.contains("\"targetColumn\":3"), reg);
        assertEquals(reg, parquet(byName), "regress --target x4 with --columns");
        assertEquals(reg, release(run(args("x.parquet", byName, "--master", "local[2]", "--id-column", "id"))),
                "regress --target x4, every column but the id");
        List<String> unknown = new ArrayList<>(List.of("regress", "--target", "y"));
        unknown.addAll(bounds);
        String[] r = run(args("x.parquet", unknown, "--master", "local[2]", "--id-column", "id"));
        assertEquals("1", r[0]);
        assertTrue(r[2].contains("--target y is not one of the value columns (x1, x2, x3, x4)"), r[2]);
    }

    /** {@code sample --known-covariance}: StableMean on all rows with the given Sigma, as passes. */
    @Test
    void knownCovarianceSampleFromNpy() throws IOException {
        NpyWriter.write(dir.resolve("big.npy"), TestSpark.gaussian(8000, 2, 23));
        Files.writeString(dir.resolve("sigma.csv"), "0.04,0\n0,0.1225\n");
        List<String> command = List.of("sample", "--epsilon", "1", "--delta", "0.1", "--known-covariance",
                dir.resolve("sigma.csv").toString());
        String local = local(command, "big.npy");
        assertTrue(local.contains("sample.known-covariance"), local);
        assertEquals(local, release(run(args("big.npy", command, "--master", "local[2]"))));
    }

    /** A release from Spark names the executors' engine (a public parameter); one without --master does not. */
    @Test
    void theReleaseNamesTheExecutorsEngine() {
        List<String> command = List.of("mean", "--clip", "1", "--rho", "0.5");
        String[] here = run(args("x.csv", command));
        assertEquals("0", here[0], here[2]);
        assertTrue(!here[1].contains("executorEngine"), here[1]);
        String[] there = run(args("x.npy", command, "--master", "local[2]"));
        assertEquals("0", there[0], there[2]);
        assertTrue(there[1].contains("\"executorEngine\":\"cpu-ejml\"}"), there[1]);
        there = run(args("x.npy", command, "--master", "local[2]", "--executor-engine", "auto"));
        assertTrue(there[1].contains("\"executorEngine\":\"auto\"}"), there[1]);
    }

    @Test
    void refusals() {
        String[] r = run(args("x.csv", List.of("mean", "--clip", "1", "--rho", "0.5"), "--id-column", "id"));
        assertEquals("1", r[0]);
        assertTrue(r[2].contains("need --master"), r[2]);
        r = run(args("x.parquet", List.of("mean", "--clip", "1", "--rho", "0.5"), "--master", "local[2]"));
        assertEquals("1", r[0]);
        assertTrue(r[2].contains("name a column of unique ids with --id-column"), r[2]);
        r = run(args("x.csv", List.of("mean", "--clip", "1", "--rho", "0.5"), "--executor-engine", "auto"));
        assertEquals("1", r[0]);
        assertTrue(r[2].contains("--executor-engine chooses the engine of a cluster's executors: it needs --master"),
                r[2]);
        r = run(args("x.csv", List.of("mean", "--clip", "1", "--rho", "0.5"), "--master", "local[2]",
                "--executor-engine", "cuda"));
        assertEquals("1", r[0]);
        assertTrue(r[2].contains("--executor-engine cuda is not one of auto, gpu, cpu-openblas, cpu-ejml"), r[2]);
        // the choice reaches the executors: gpu there (no GPU on this machine) fails the task, saying what to do
        r = run(args("x.csv", List.of("mean", "--clip", "1", "--rho", "0.5"), "--master", "local[2]",
                "--executor-engine", "gpu"));
        assertEquals("1", r[0], r[1] + r[2]);
        assertTrue(r[2].contains("this executor cannot run the gpu engine"), r[2]);
    }
}
