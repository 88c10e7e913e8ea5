package org.dpgauss.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.dpgauss.gx2.GeneralizedChiSquare;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one generalized chi-square probability (spec ndis §3-§4; issue 3 target: under 50 ms per call with
 * 1000 distinct weights). Spectra, all with distinct weights, dof 1 and a fixed seed:
 * <ul>
 * <li>{@code mixed1000}: NDIS-like, {@code w_j = (1 - tau_j)/2} with tau_j log-uniform in [0.2, 5] (both signs),
 *     non-centralities {@code (b_j/a_j)^2} with b_j ~ N(0, 0.1^2), sigma = 0;</li>
 * <li>{@code same1000}: w_j uniform in [0.1, 1], small non-centralities, sigma = 0;</li>
 * <li>{@code ndis500}: as mixed1000 with 500 terms and a normal term sigma = 0.3.</li>
 * </ul>
 * The threshold is {@code mean + z sd}; z = 6 is a far upper tail (about 1e-9 to 1e-12), z = -2 a lower tail.
 * {@link #cdf} evaluates a prepared distribution; {@link #ofAndCdf} includes the factory (merging, checks), as
 * NDIS builds a new distribution per delta evaluation. AverageTime in milliseconds per call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
public class GeneralizedChiSquareBenchmark {

    @Param({"mixed1000", "same1000", "ndis500"})
    public String spectrum;

    @Param({"-2", "0", "6"})
    public double z;

    private double[] weights;
    private int[] dof;
    private double[] nc;
    private double sigma;
    private GeneralizedChiSquare distribution;
    private double x;

    @Setup
    public void setup() {
        Random rnd = new Random(20_240_601L);
        int m = spectrum.endsWith("1000") ? 1000 : 500;
        weights = new double[m];
        dof = new int[m];
        nc = new double[m];
        sigma = spectrum.equals("ndis500") ? 0.3 : 0;
        for (int j = 0; j < m; j++) {
            dof[j] = 1;
            if (spectrum.equals("same1000")) {
                weights[j] = 0.1 + 0.9 * (j + 0.5) / m;
                nc[j] = 0.01 * rnd.nextDouble();
            } else {
                double tau = Math.exp(Math.log(0.2) + (Math.log(5) - Math.log(0.2)) * (j + 0.5) / m);
                if (Math.abs(1 - tau) < 1e-3) {
                    tau = 1.01;
                }
                double a = 1 - tau;
                double b = 0.1 * rnd.nextGaussian();
                weights[j] = a / 2;
                nc[j] = (b / a) * (b / a);
            }
        }
        distribution = GeneralizedChiSquare.of(weights, dof, nc, sigma);
        x = distribution.mean() + z * Math.sqrt(distribution.variance());
    }

    @Benchmark
    public double cdf() {
        return distribution.cdf(x);
    }

    @Benchmark
    public double ofAndCdf() {
        return GeneralizedChiSquare.of(weights, dof, nc, sigma).cdf(x);
    }
}
