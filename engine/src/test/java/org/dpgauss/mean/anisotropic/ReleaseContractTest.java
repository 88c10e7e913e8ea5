package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/** The anisotropic family under the release contract (issue 14): statements, neighbours, messages, certification. */
class ReleaseContractTest {

    private static final double[] VARIANCES = {1, 0.25, 0.0625};

    private static PrivateRelease run(PrivateMechanism m, RowBlockMatrix x, RandomSource random) {
        return Releases.run(m, Dataset.of(x), 1e-6, ReleaseContext.of(CpuEngine.instance(), random));
    }

    private static RowBlockMatrix withRow(RowBlockMatrix x, int i, double[] row) {
        RowBlockMatrix y = RowBlockMatrix.zeros(x.rows(), x.cols());
        for (int r = 0; r < x.rows(); r++) {
            y.setRow(r, r == i ? row : x.row(r));
        }
        return y;
    }

    /**
     * Replace-one neighbours D and D' (one row replaced by a row of 1e300s): both release, with the same fields.
     * Before issue 14 the whitening threw ("outside [-2^900, 2^900]") after reading the data for D' only.
     */
    @Test
    void neighboursGiveTheSameFieldsAndNeitherErrors() {
        RowBlockMatrix d = GaussianTestData.diagonal(3000, new double[] {5, 5, 5}, VARIANCES, 11);
        RowBlockMatrix dPrime = withRow(d, 17, new double[] {1e300, -1e300, 1e300});
        List<PrivateMechanism> mechanisms = new ArrayList<>();
        for (AnisotropicMethod m : AnisotropicMethod.values()) {
            mechanisms.add(m.estimator(ShapeMatrix.diagonal(VARIANCES), 3000, 0.01, ApproxDp.of(2, 1e-6)));
        }
        mechanisms.add(CoordinateWiseMean.of(VARIANCES, 3000, 0.01, ApproxDp.of(2, 1e-6)));
        for (PrivateMechanism m : mechanisms) {
            PrivateRelease a = run(m, d, RandomSource.insecureSeeded(3));
            PrivateRelease b = run(m, dPrime, RandomSource.insecureSeeded(3));
            assertEquals(a.toMap().keySet(), b.toMap().keySet(), a.mechanism());
            assertTrue(a.isPass() && b.isPass(), a + " / " + b);
        }
    }

    /** Finding 5 at library level: a seeded source withdraws the recipe's certification, in Releases only. */
    @Test
    void certificationIsTheRecipesAndReleasesWithdrawsItForASeededSource() {
        RowBlockMatrix x = GaussianTestData.diagonal(3000, new double[] {5, 5, 5}, VARIANCES, 12);
        RescaledAveraging a = AnisotropicMethod.ANISOTROPIC.estimator(ShapeMatrix.diagonal(VARIANCES), 3000, 0.01, ApproxDp.of(2, 1e-6));
        CoordinateWiseMean c = CoordinateWiseMean.of(VARIANCES, 3000, 0.01, ApproxDp.of(2, 1e-6));
        for (PrivateMechanism m : List.of(a, c)) {
            PrivateRelease insecure = run(m, x, RandomSource.insecureSeeded(1));
            assertFalse(insecure.guarantee().certified(), insecure.mechanism());
            assertTrue(insecure.insecure());
            PrivateRelease secure = run(m, x, RandomSource.secure());
            assertTrue(secure.guarantee().certified(), secure.mechanism());
        }
    }

    /** No mechanism of the family decides certification from the random source itself (only Releases does). */
    @Test
    void noMechanismConsultsTheRandomSourceForCertification() throws IOException {
        Path root = Path.of("src/main/java/org/dpgauss");
        List<Path> offenders = new ArrayList<>();
        for (String pkg : new String[] {"mean/anisotropic", "sampling", "sampling/stable"}) {
            try (Stream<Path> files = Files.list(root.resolve(pkg))) {
                files.filter(p -> p.toString().endsWith(".java"))
                        .forEach(p -> {
                            try {
                                if (Files.readString(p).contains("isInsecure()")) {
                                    offenders.add(p);
                                }
                            } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        });
            }
        }
        assertTrue(offenders.isEmpty(), "consult random.isInsecure(): " + offenders);
    }

    /**
     * Finding 8: "insufficient samples" names the N that would suffice (a function of public parameters), and that N
     * is exactly the boundary: N runs, N - 1 is refused.
     */
    @Test
    void insufficientSamplesNamesTheRowsNeeded() {
        long need = UnknownCovarianceMean.requiredRows(5, 4, 1e-3, 0.5);
        assertNull(UnknownCovarianceMean.shortfall(need, 5, 4, 1e-3, 0.5));
        UnknownCovarianceMean.of((int) need, 5, ApproxDp.of(4, 1e-3), 0.5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UnknownCovarianceMean.of((int) need - 1, 5, ApproxDp.of(4, 1e-3), 0.5));
        assertTrue(e.getMessage().startsWith("insufficient samples")
                && e.getMessage().contains("N >= " + need + " rows are needed"), e.getMessage());
        // the §4.6 stable-histogram condition (binding at a small epsilon) gives its number too
        String why = UnknownCovarianceMean.shortfall(2 * 2 * ChiSquareRule.groupHalfSize(5) * 2000L, 5, 0.05, 1e-6,
                0.5);
        assertTrue(why != null && why.contains("§4.6") && why.matches("(?s).*needs m >= \\d+ groups.*"), why);
    }

    /** The composed guarantee of Algorithm 2 is at most the target, and names how it was composed. */
    @Test
    void unknownCovarianceComposesItsStepsWithinTheTarget() {
        UnknownCovarianceMean u = UnknownCovarianceMean.of(22000, 5, ApproxDp.of(4, 1e-3), 0.5);
        ApproxDp g = u.guarantee().approxDp().orElseThrow();
        assertTrue(g.epsilon() <= 4 && g.delta() <= 1e-3, g.toString());
        assertTrue(u.guarantee().conversion().contains("parallel composition"), u.guarantee().conversion());
        CoordinateWiseMean c = CoordinateWiseMean.of(VARIANCES, 3000, 0.01, ApproxDp.of(2, 1e-6));
        ApproxDp gc = c.guarantee().approxDp().orElseThrow();
        assertTrue(gc.epsilon() <= 2 && gc.delta() <= 1e-6, gc.toString());
    }

    /** A session composes the statements of the family's mechanisms and refuses, atomically, what exceeds it. */
    @Test
    void aSessionChargesTheStatedGuaranteesAndRefusesBeyondTheBudget() {
        RowBlockMatrix x = GaussianTestData.diagonal(3000, new double[] {5, 5, 5}, VARIANCES, 13);
        org.dpgauss.release.PrivacySession s = org.dpgauss.release.PrivacySession.builder(Dataset.of(x))
                .relation(org.dpgauss.privacy.NeighbouringRelation.REPLACE_ONE).budget(ApproxDp.of(4, 1e-5))
                .context(ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(4))).open();
        PrivateRelease a = s.release(AnisotropicMethod.ANISOTROPIC.estimator(ShapeMatrix.diagonal(VARIANCES), 3000,
                0.01, ApproxDp.of(2, 1e-6)));
        PrivateRelease c = s.release(CoordinateWiseMean.of(VARIANCES, 3000, 0.01, ApproxDp.of(2, 1e-6)));
        assertTrue(a.isPass() && c.isPass(), a + " / " + c);
        assertTrue(s.spent().epsilon() <= 4 + 1e-12 && s.spent().delta() <= 1e-5, s.spent().toString());
        assertThrows(org.dpgauss.privacy.accounting.BudgetExceededException.class,
                () -> s.release(CoordinateWiseMean.of(VARIANCES, 3000, 0.01, ApproxDp.of(1, 1e-6))));
        assertEquals(2, s.report().releases().size());
    }
}
