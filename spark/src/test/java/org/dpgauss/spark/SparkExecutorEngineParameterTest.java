package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.junit.jupiter.api.Test;

/**
 * A release from Spark states the engine its executors were asked to run as the public parameter
 * {@code executorEngine} (after the mechanism's own parameters, in {@code toMap()} as everywhere); the values and
 * every other part are the single-machine release's.
 */
class SparkExecutorEngineParameterTest {

    private static final double[][] X = TestSpark.gaussian(600, 3, 5);

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(4));
    }

    private static PrivateRelease spark(String executorEngine) {
        SparkPrivacySession.Builder b = SparkPrivacySession.builder(TestSpark.table(X, 2, 3))
                .valueColumns(TestSpark.columns(3)).idColumn("id").relation(NeighbouringRelation.REPLACE_ONE)
                .budget(ApproxDp.of(10, 1e-6)).context(seeded());
        if (executorEngine != null) {
            b.executorEngine(executorEngine);
        }
        try (SparkPrivacySession s = b.open()) {
            return s.release(AnalyzeGauss.of(1.5, Zcdp.of(0.5)));
        }
    }

    @Test
    void theReleaseNamesTheExecutorsEngine() {
        PrivateRelease local = Releases.run(AnalyzeGauss.of(1.5, Zcdp.of(0.5)), Dataset.of(X), 1e-6, seeded());
        assertFalse(local.parameters().has("executorEngine"), "a single-machine release says nothing of executors");

        PrivateRelease byDefault = spark(null);
        Map<?, ?> params = (Map<?, ?>) byDefault.toMap().get("parameters");
        assertEquals("cpu-ejml", params.get("executorEngine"), "the driver's engine by default");
        Object[] names = params.keySet().toArray();
        assertEquals("executorEngine", names[names.length - 1], "after the mechanism's own parameters");
        assertEquals(local.parameters().names().size() + 1, params.size());
        assertTrue(TestSpark.sameBits(local.toMap(), byDefault.toMap()), "otherwise the single-machine release");

        PrivateRelease auto = spark("auto");
        assertEquals("auto", ((Map<?, ?>) auto.toMap().get("parameters")).get("executorEngine"));
        // no GPU here: auto ran the CPU engine on every task, so the same bits
        assertTrue(TestSpark.sameBits(local.toMap(), auto.toMap()));
        assertFalse(TestSpark.sameBits(byDefault.toMap(), auto.toMap()), "the parameter is compared between two"
                + " Spark releases");
    }
}
