package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.MultivariateGaussianNoise;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.dpgauss.testing.DataLeakScanner;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, item 2, in the library: the exceptions a release, a session or a noise primitive raises on bad and
 * extreme inputs name no number of the data (checked by {@link DataLeakScanner} on the whole cause chain).
 * {@code cli.NoDataInMessagesTest} runs the same scan on every command of the command line.
 */
class NoDataInExceptionsTest {

    private static double nine(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.9g", v));
    }

    private static double[][] rows(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][3];
        for (double[] row : x) {
            for (int j = 0; j < 3; j++) {
                row[j] = nine(3.1 + r.nextGaussian());
            }
        }
        return x;
    }

    /** Every message of the cause chain of whatever {@code run} throws; empty when it returns. */
    private static String messages(Supplier<?> run) {
        StringBuilder sb = new StringBuilder();
        try {
            Object r = run.get();
            if (r instanceof PrivateRelease) {
                PrivateRelease p = (PrivateRelease) r;
                // a PASS's values are the release; everything else it says is scanned
                sb.append(p.isPass() ? "" : p.toMap().toString()).append(' ').append(p.guarantee().describe())
                        .append(' ').append(p.parameters().toMap());
            }
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                sb.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append('\n');
            }
        }
        return sb.toString();
    }

    @Test
    void theNoiseGridNamesNoQueryValue() {
        // the query value of issue 24's report: a non-private mean far off the grid
        double query = 2.4390243902439024E298;
        DataLeakScanner s = DataLeakScanner.of(new double[][] {{query}}, false);
        IllegalArgumentException far = assertThrows(IllegalArgumentException.class,
                () -> NoiseGrid.index(query, 0x1p600));
        assertEquals(List.of(), s.leaks(far.getMessage()), far.getMessage());
        assertTrue(far.getMessage().contains("2^52"), far.getMessage());
        // nor the number of spacings k = query / g, nor g: with k, g gives the value back
        assertTrue(!far.getMessage().matches("(?s).*\\d[eE][-+]?\\d.*"), far.getMessage());
        IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
                () -> NoiseGrid.index(Double.POSITIVE_INFINITY, 1.0));
        assertTrue(!nan.getMessage().contains("Infinity"), nan.getMessage());
    }

    @Test
    void releasesAndSessionsOnBadAndExtremeRowsNameNoValue() {
        double[][] base = rows(2903, 24);
        List<double[][]> datasets = new ArrayList<>();
        datasets.add(base);
        double[][] huge = base.clone();
        huge[7] = new double[] {7.31946213e299, -5.41231877e299, 6.27193452e299};
        datasets.add(huge);
        double[][] tiny = base.clone();
        tiny[7] = new double[] {7.31946213e-300, -5.41231877e-300, 6.27193452e-300};
        datasets.add(tiny);
        double[][] nan = base.clone();
        nan[7] = new double[] {base[7][0], Double.NaN, base[7][2]};
        datasets.add(nan);
        List<String> leaks = new ArrayList<>();
        int runs = 0;
        for (double[][] x : datasets) {
            DataLeakScanner scanner = DataLeakScanner.of(x, false);
            for (double clip : new double[] {5, 1e200, 1e-290, 1e300}) {
                Supplier<Object> release = () -> Releases.run(
                        ClippedGaussianMean.builder().clipRadius(clip).rho(0.5).build(3), Dataset.of(x), 1e-6,
                        ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(3)));
                leaks.addAll(scanner.report("Releases.run, clip " + clip, messages(release)));
                // a session over budget, and one within it
                for (double eps : new double[] {0.01, 10}) {
                    Supplier<Object> session = () -> PrivacySession.builder(Dataset.of(x))
                            .relation(NeighbouringRelation.REPLACE_ONE).budget(ApproxDp.of(eps, 1e-6))
                            .context(ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(4))).open()
                            .release(ClippedGaussianMean.builder().clipRadius(clip).rho(0.5).build(3));
                    leaks.addAll(scanner.report("session eps " + eps + ", clip " + clip, messages(session)));
                    runs++;
                }
                runs++;
            }
        }
        // a data-dependent noise covariance (the NDIS mechanisms' A A^T) that is not PSD or not symmetric
        DMatrixRMaj notPsd = new DMatrixRMaj(new double[][] {{1.23456789, 7.31946213}, {7.31946213, 2.71828183}});
        DataLeakScanner c = DataLeakScanner.of(new double[][] {{1.23456789, 7.31946213, 2.71828183}}, false)
                .aggregate((1.23456789 + 2.71828183) / 2 - Math.hypot((1.23456789 - 2.71828183) / 2, 7.31946213),
                        "negative eigenvalue");
        leaks.addAll(c.report("MultivariateGaussianNoise", messages(() -> MultivariateGaussianNoise.ofCovariance(
                notPsd))));
        DMatrixRMaj asym = new DMatrixRMaj(new double[][] {{1.23456789, 7.31946213}, {2.71828183, 1.23456789}});
        leaks.addAll(c.report("MultivariateGaussianNoise", messages(() -> MultivariateGaussianNoise.ofCovariance(
                asym))));
        assertEquals(48, runs);
        assertTrue(leaks.isEmpty(), String.join("\n", leaks));
    }
}
