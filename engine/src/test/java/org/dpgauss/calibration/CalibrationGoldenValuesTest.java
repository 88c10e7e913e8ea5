package org.dpgauss.calibration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every row of {@code golden-values.csv}: published reference values (docs/references/reference-values.md, and docs/references/ndis-values.md
 * for spec ndis §6.3, §6.4, §8.2, §9.2) and an independent mpmath recomputation, each with its provenance and tolerance.
 */
class CalibrationGoldenValuesTest {

    record Row(int line, String kind, double[] args, double expected, double rel, double abs, String provenance) {
    }

    static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        try (InputStream in = Objects.requireNonNull(
                CalibrationGoldenValuesTest.class.getResourceAsStream("golden-values.csv"), "golden-values.csv");
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = reader.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(";");
                String[] a = f[1].trim().split("\\s+");
                double[] args = new double[a.length];
                for (int i = 0; i < a.length; i++) {
                    args[i] = Double.parseDouble(a[i]);
                }
                rows.add(new Row(n, f[0].trim(), args, Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                        Double.parseDouble(f[4]), f[5]));
            }
        }
        return rows;
    }

    static double evaluate(String kind, double[] a) {
        switch (kind) {
            case "gm_delta":
                return GaussianMechanismCurve.delta(a[0], a[1]);
            case "gm_delta_s":
                return GaussianMechanismCurve.delta(a[0], a[1], a[2]);
            case "gm_eps":
                return GaussianMechanismCurve.epsilon(a[0], a[1]);
            case "ag_sigma":
                return AnalyticGaussian.sigma(a[0], a[1], a[2]);
            case "rp_delta":
                return RandomProjectionCurve.delta(a[0], a[1], (int) a[2]);
            case "rp_pstar":
                return RandomProjectionCurve.leverageBound(a[0], a[1], (int) a[2]);
            case "rp_ridge":
                return RandomProjectionCurve.ridge(a[0], a[1], (int) a[2], a[3]);
            case "lsv_p":
                return RandomProjectionCurve.lsvLeverage(a[0], a[1], (int) a[2]);
            case "fig2_ratio":
                return RandomProjectionCurve.leverageBound(a[0], a[1], (int) a[2])
                        / RandomProjectionCurve.lsvLeverage(a[0], a[1], (int) a[2]);
            case "pois_eps0":
                return RandomProjectionCurve.poissonSubsampled(a[0], a[1], a[2]).epsilon0();
            case "pois_pstar": {
                RandomProjectionCurve.PoissonParameters pp = RandomProjectionCurve.poissonSubsampled(a[0], a[1], a[2]);
                return RandomProjectionCurve.leverageBound(pp.epsilon0(), pp.delta0(), (int) a[3]);
            }
            case "pois_ridge": {
                RandomProjectionCurve.PoissonParameters pp = RandomProjectionCurve.poissonSubsampled(a[0], a[1], a[2]);
                return RandomProjectionCurve.ridge(pp.epsilon0(), pp.delta0(), (int) a[3], a[4]);
            }
            default:
                if (kind.startsWith("ptr_")) {
                    RandomProjectionCurve.PtrCalibration c =
                            RandomProjectionCurve.ptr(a[0], (int) a[1], a[2], a[3], a[4], a[5], a[6]);
                    switch (kind) {
                        case "ptr_epsT": return c.epsilonT();
                        case "ptr_epsR": return c.epsilonR();
                        case "ptr_pstar": return c.leverage();
                        case "ptr_ridge": return c.ridge();
                        case "ptr_alpha": return c.alpha();
                        case "ptr_threshold": return c.propositionFiveThreshold();
                        default: break;
                    }
                }
                throw new IllegalArgumentException("unknown kind " + kind);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyGoldenValue() throws IOException {
        List<Row> rows = rows();
        assertTrue(rows.size() > 150, "golden file has " + rows.size() + " rows");
        return rows.stream().map(row -> DynamicTest.dynamicTest(
                "line " + row.line() + ": " + row.kind() + java.util.Arrays.toString(row.args()), () -> {
                    double actual = evaluate(row.kind(), row.args());
                    double tol = Math.max(row.rel() * Math.abs(row.expected()), row.abs());
                    double err = Math.abs(actual - row.expected());
                    assertTrue(err <= tol || actual == row.expected(), () -> "line " + row.line() + " " + row.kind()
                            + java.util.Arrays.toString(row.args()) + ": expected " + row.expected() + " got " + actual
                            + " (relative error " + err / Math.abs(row.expected()) + ", tolerance " + tol + "; "
                            + row.provenance() + ")");
                }));
    }
}
