package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.junit.jupiter.api.Test;

/**
 * Issue 26 item 0: an expected error computed from the release itself (post-processing). The refinement sees the
 * a-priori statement and the released values only; a PASS carries the refined statement (labelled
 * {@code expectedBasis = "release: ..."}, the bound unchanged), a FAIL the a-priori one; adding parameters keeps it.
 */
class AccuracyFromReleaseTest {

    private static Statement statement() {
        Statement base = AnalyzeGauss.of(1.0, Zcdp.of(0.5)).state(
                PublicContext.forPlanning(100, 2, NeighbouringRelation.REPLACE_ONE, 1e-6));
        Accuracy a = Accuracy.of("m", 1.0, 10.0, 0.95, "").expectedForScenario("S = I");
        return Statement.builder(base.context(), "test.refined", base.guarantee()).accuracy(a)
                .accuracyFromRelease((apriori, values) -> apriori.expectedFromRelease(
                        2 * values.get("v").asScalar(), "twice the released v"))
                .build();
    }

    @Test
    void aPassCarriesTheExpectedValueComputedFromItsValues() {
        Statement s = statement();
        PrivateRelease r = Releases.assemble(s, Outcome.pass().scalar("v", 0.25).build(),
                RandomSource.insecureSeeded(1));
        Accuracy a = r.accuracy().orElseThrow();
        assertEquals(0.5, a.expected(), 0);
        assertEquals(10.0, a.bound(), 0); // the a-priori bound is kept
        assertTrue(a.isFromRelease());
        assertFalse(a.isScenario());
        assertEquals("release: twice the released v", a.toMap().get("expectedBasis"));
        // the statement itself (before the data) is unchanged: the scenario
        assertTrue(s.accuracy().orElseThrow().isScenario());
        assertEquals(1.0, s.accuracy().orElseThrow().expected(), 0);
        // where the release was computed: the refinement travels with the statement
        Statement w = s.withParameters(PublicParameters.builder().put("executorEngine", "cpu-ejml").build());
        assertEquals(0.5, Releases.assemble(w, Outcome.pass().scalar("v", 0.25).build(),
                RandomSource.insecureSeeded(1)).accuracy().orElseThrow().expected(), 0);
    }

    @Test
    void aFailCarriesTheAprioriStatement() {
        PrivateRelease r = Releases.assemble(statement(), Outcome.fail(), RandomSource.insecureSeeded(1));
        Accuracy a = r.accuracy().orElseThrow();
        assertEquals(1.0, a.expected(), 0);
        assertTrue(a.isScenario());
    }

    @Test
    void theExpectedValueMustBeFinite() {
        Accuracy a = Accuracy.of("m", 1.0, 10.0, 0.95, "");
        assertThrows(IllegalArgumentException.class, () -> a.expectedFromRelease(Double.NaN, "x"));
        assertThrows(IllegalArgumentException.class, () -> a.expectedFromRelease(Double.POSITIVE_INFINITY, "x"));
        assertThrows(IllegalArgumentException.class, () -> a.expectedFromRelease(-1, "x"));
    }

    /**
     * An accuracy input (post-processing of the noised values that the release does not print) reaches the
     * refinement and nothing else: not the released values, not the printed map; a name is given once.
     */
    @Test
    void anAccuracyInputReachesTheRefinementOnly() {
        Statement s = Statement.builder(statement().context(), "test.input", statement().guarantee())
                .accuracy(Accuracy.of("m", 1.0, 10.0, 0.95, ""))
                .accuracyFromRelease((apriori, values) -> apriori.expectedFromRelease(
                        values.get("secret").asScalar(), "from an input"))
                .build();
        PrivateRelease r = Releases.assemble(s, Outcome.pass().scalar("v", 0.25).accuracyInput("secret", 3.0)
                .build(), RandomSource.insecureSeeded(1));
        assertEquals(3.0, r.accuracy().orElseThrow().expected(), 0);
        assertEquals(java.util.Set.of("v"), r.values().keySet());
        assertFalse(r.toMap().toString().contains("secret"), r.toMap().toString());
        assertThrows(IllegalArgumentException.class, () -> Outcome.pass().scalar("v", 1).accuracyInput("v", 2));
        assertThrows(IllegalArgumentException.class, () -> Outcome.pass().accuracyInput("h", 1).accuracyInput("h", 2));
    }
}
