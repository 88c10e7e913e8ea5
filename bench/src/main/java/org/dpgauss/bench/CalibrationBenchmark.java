package org.dpgauss.bench;

import java.util.concurrent.TimeUnit;
import org.dpgauss.calibration.AnalyticGaussian;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the scalar privacy curves and calibrations of {@code org.dpgauss.calibration} (spec ndis §10: they are
 * O(1) per evaluation, a bisection is ~40-90 evaluations). The "quadrature" cases take the cancellation-free
 * integral branch; the others the closed form.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
public class CalibrationBenchmark {

    public double eps = 1;
    public double tau = 0.5;

    @Benchmark
    public double gmDeltaClosedForm() {
        return GaussianMechanismCurve.delta(eps, tau);
    }

    @Benchmark
    public double gmDeltaQuadrature() {
        return GaussianMechanismCurve.delta(0.3 * eps, 0.01);
    }

    @Benchmark
    public double rpDeltaClosedForm() {
        return RandomProjectionCurve.delta(eps, 0.2, 20);
    }

    @Benchmark
    public double rpDeltaQuadrature() {
        return RandomProjectionCurve.delta(eps, 0.0273671, 100);
    }

    @Benchmark
    public double analyticSigma() {
        return AnalyticGaussian.sigma(eps, 1e-6, 1);
    }

    @Benchmark
    public double leverageBound() {
        return RandomProjectionCurve.leverageBound(eps, 1e-6, 100);
    }
}
