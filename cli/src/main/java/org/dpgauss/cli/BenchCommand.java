package org.dpgauss.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.random.CounterBasedGenerator;
import org.dpgauss.random.Philox4x32;
import org.ejml.data.DMatrixRMaj;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * Times one compute primitive on synthetic standard-normal data: a quick harness for comparing backends
 * and machines (JMH benchmarks live in the bench module).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Time one compute primitive on synthetic N(0, I) data (n x d, Philox-generated).",
            "OP is one of: gram, cholesky, mahalanobis, whiten, distances, neighbours, projection, eigen, peel.",
            "Prints each repetition's wall time and the median; with --json: "
                    + "{\"op\":..,\"n\":..,\"d\":..,\"engine\":..,\"seconds\":[..],\"median_seconds\":..}."})
final class BenchCommand implements Callable<Integer> {

    enum Op {
        GRAM("weighted Gram (1/n) Y^T Y of all rows"),
        CHOLESKY("Cholesky of the d x d Gram + I"),
        MAHALANOBIS("squared Mahalanobis norms of all rows w.r.t. the Gram's Cholesky factor"),
        WHITEN("whitening X L^-T"),
        DISTANCES("squared distances to a reference set of --ref rows, keeping the --keep largest per row"),
        NEIGHBOURS("neighbour counts within --radius for all rows (quadratic in n)"),
        PROJECTION("Gaussian random projection X^T G to --rank columns, G from --generator"),
        EIGEN("symmetric eigendecomposition of the d x d Gram"),
        PEEL("LargestGoodSubset peeling at threshold --lambda");

        final String what;

        Op(String what) {
            this.what = what;
        }

        static Op parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown OP '" + s + "'; expected one of "
                        + Arrays.toString(values()).toLowerCase(Locale.ROOT));
            }
        }
    }

    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "OP", description = "Primitive to time (see above).")
    String op;

    @Option(names = "--n", required = true, description = "Rows of the synthetic data.")
    int n;

    @Option(names = "--d", required = true, description = "Columns of the synthetic data.")
    int d;

    @Option(names = "--repeat", defaultValue = "5", description = "Timed repetitions (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--warmup", defaultValue = "1", description = "Untimed warm-up runs (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--ref", description = "distances: reference-set size (default: min(n, 1200)).")
    Integer ref;

    @Option(names = "--keep", defaultValue = "21", description = "distances: largest distances kept per row (default: ${DEFAULT-VALUE}).")
    int keep;

    @Option(names = "--radius", description = "neighbours: radius (default: sqrt(2d), about the median pair distance).")
    Double radius;

    @Option(names = "--rank", defaultValue = "100", description = "projection: columns r of G (default: ${DEFAULT-VALUE}).")
    int rank;

    @Option(names = "--generator", defaultValue = "chacha20", description = "projection: chacha20 or philox (default: ${DEFAULT-VALUE}).")
    String generator;

    @Option(names = "--lambda", description = "peel: threshold (default: 2d, which keeps nearly every Gaussian row).")
    Double lambda;

    @Override
    public Integer call() {
        Op which = Op.parse(op);
        if (n < 1) {
            throw new IllegalArgumentException("--n=" + n + " must be >= 1");
        }
        if (d < 1) {
            throw new IllegalArgumentException("--d=" + d + " must be >= 1");
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat=" + repeat + " must be >= 1");
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup=" + warmup + " must be >= 0");
        }
        EngineSelection selection = main.selectEngine();
        ComputeEngine engine = selection.engine();
        long seed = main.insecureSeed == null ? 20261120L : main.insecureSeed;
        RowBlockMatrix x = SyntheticData.standardNormal(n, d, seed);
        Runnable task = prepare(which, engine, x, seed);
        for (int w = 0; w < warmup; w++) {
            task.run();
        }
        double[] seconds = new double[repeat];
        for (int r = 0; r < repeat; r++) {
            long t0 = System.nanoTime();
            task.run();
            seconds[r] = (System.nanoTime() - t0) * 1e-9;
        }
        double[] sorted = seconds.clone();
        Arrays.sort(sorted);
        double median = repeat % 2 == 1 ? sorted[repeat / 2] : 0.5 * (sorted[repeat / 2 - 1] + sorted[repeat / 2]);
        PrintWriter out = main.spec.commandLine().getOut();
        if (main.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("op", which.name().toLowerCase(Locale.ROOT));
            m.put("n", n);
            m.put("d", d);
            m.put("engine", engine.name());
            m.put("seconds", seconds);
            m.put("median_seconds", median);
            m.put("engine_detail", engine.description());
            m.put("engine_reason", selection.reason());
            m.put("params", params(which));
            m.put("java", System.getProperty("java.version"));
            m.put("cores", Runtime.getRuntime().availableProcessors());
            out.println(Json.write(m));
        } else {
            out.printf(Locale.ROOT, "%s (%s) on n=%d, d=%d, engine %s%n", which.name().toLowerCase(Locale.ROOT),
                    which.what, n, d, engine.description());
            out.printf(Locale.ROOT, "  %s%n", selection.reason());
            List<String> ts = new ArrayList<>();
            for (double s : seconds) {
                ts.add(String.format(Locale.ROOT, "%.4f", s));
            }
            out.printf(Locale.ROOT, "  seconds: %s; median %.4f s%n", String.join(" ", ts), median);
        }
        return 0;
    }

    private Map<String, Object> params(Op which) {
        Map<String, Object> p = new LinkedHashMap<>();
        switch (which) {
            case DISTANCES:
                p.put("ref", refSize());
                p.put("keep", keep);
                break;
            case NEIGHBOURS:
                p.put("radius", radius());
                break;
            case PROJECTION:
                p.put("rank", rank);
                p.put("generator", generator);
                break;
            case PEEL:
                p.put("lambda", lambda());
                break;
            default:
                break;
        }
        p.put("repeat", repeat);
        p.put("warmup", warmup);
        return p;
    }

    private int refSize() {
        int m = ref == null ? Math.min(n, 1200) : ref;
        if (m < 1 || m > n) {
            throw new IllegalArgumentException("--ref=" + m + " must be in [1, n=" + n + "]");
        }
        return m;
    }

    private double radius() {
        double r = radius == null ? Math.sqrt(2.0 * d) : radius;
        if (!(r >= 0) || !Double.isFinite(r)) {
            throw new IllegalArgumentException("--radius=" + r + " must be finite and >= 0");
        }
        return r;
    }

    private double lambda() {
        double l = lambda == null ? 2.0 * d : lambda;
        if (!(l > 0) || !Double.isFinite(l)) {
            throw new IllegalArgumentException("--lambda=" + l + " must be finite and > 0");
        }
        return l;
    }

    private Runnable prepare(Op which, ComputeEngine engine, RowBlockMatrix x, long seed) {
        switch (which) {
            case GRAM:
                return () -> engine.weightedGram(x, null, null, n);
            case CHOLESKY: {
                DMatrixRMaj a = gramPlusIdentity(engine, x);
                return () -> engine.cholesky(a);
            }
            case MAHALANOBIS: {
                DMatrixRMaj l = factor(engine, x);
                return () -> engine.mahalanobisNorms(x, l, null);
            }
            case WHITEN: {
                DMatrixRMaj l = factor(engine, x);
                return () -> engine.whiten(x, l);
            }
            case DISTANCES: {
                int m = refSize();
                if (keep < 1 || keep > m) {
                    throw new IllegalArgumentException("--keep=" + keep + " must be in [1, ref=" + m + "]");
                }
                int[] rows = new int[m];
                for (int i = 0; i < m; i++) {
                    rows[i] = i;
                }
                RowBlockMatrix reference = x.selectRows(rows);
                return () -> engine.largestReferenceDistances(x, reference, keep);
            }
            case NEIGHBOURS: {
                double r = radius();
                return () -> engine.neighbourCounts(x, r);
            }
            case PROJECTION: {
                if (rank < 1) {
                    throw new IllegalArgumentException("--rank=" + rank + " must be >= 1");
                }
                CounterBasedGenerator g;
                switch (generator.toLowerCase(Locale.ROOT)) {
                    case "chacha20":
                        g = ChaCha20.fromSecureRandom(new java.security.SecureRandom());
                        break;
                    case "philox":
                        g = Philox4x32.withKey(seed, 1L);
                        break;
                    default:
                        throw new IllegalArgumentException("--generator=" + generator + " is not chacha20 or philox");
                }
                return () -> engine.gaussianProjection(x, rank, g, 0);
            }
            case EIGEN: {
                DMatrixRMaj a = engine.weightedGram(x, null, null, n);
                return () -> engine.symmetricEigen(a);
            }
            case PEEL: {
                double l = lambda();
                return () -> engine.largestGoodSubset(x, l, null, n);
            }
            default:
                throw new IllegalStateException(which.toString());
        }
    }

    private DMatrixRMaj gramPlusIdentity(ComputeEngine engine, RowBlockMatrix x) {
        DMatrixRMaj a = engine.weightedGram(x, null, null, n);
        for (int i = 0; i < d; i++) {
            a.add(i, i, 1.0);
        }
        return a;
    }

    private DMatrixRMaj factor(ComputeEngine engine, RowBlockMatrix x) {
        CholeskyResult c = engine.cholesky(gramPlusIdentity(engine, x));
        return c.lower();
    }
}
