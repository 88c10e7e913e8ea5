package org.dpgauss.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

/** Findings of the privacy review (NOTES-revbhs.md); deterministic, fast. */
class ReviewFindingsTest {

    /** Records everything logged under org.dpgauss while it is installed. */
    static final class Capture extends Handler implements AutoCloseable {
        final List<LogRecord> records = new ArrayList<>();
        private final Logger logger = Logger.getLogger("org.dpgauss");
        private final Level before = logger.getLevel();

        Capture() {
            setLevel(Level.ALL);
            logger.setLevel(Level.ALL);
            logger.addHandler(this);
        }

        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
            logger.setLevel(before);
        }
    }

    /**
     * A FAIL carries nothing else (design.md): the FAIL that replaces a non-finite output after a PASSED test must not
     * be logged (a stderr line would tell that the PTR step passed). The mean part at Double.MAX_VALUE makes the
     * weighted mean overflow; Score1 = Score2 = 0, so the PTR passes (pFail(0) = 0) and the overflow path runs.
     */
    @Test
    void nonFiniteOutputFailsSilently() {
        int n1 = 1000;
        int n2 = 2000;
        int n = n1 + 2 * n2;
        double[][] x = new double[n][1];
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < n; i++) {
            x[i][0] = i < n1 ? Double.MAX_VALUE : 4 * SamplingTestData.gauss(r); // Sigma^ > 1: whitening cannot overflow
        }
        SamplerParameters p = SamplerParameters.withConstants(n, 1, 1, 0.1, 0.05, PtrMechanism.SOUND,
                SizeConstants.partSizes(n1, n2));
        try (Capture c = new Capture()) {
            UnboundedGaussianSampler.Trace t = UnboundedGaussianSampler.of(p)
                    .run(RowBlockMatrix.of(x), CpuEngine.instance(), RandomSource.insecureSeeded(3));
            assertTrue(t.passed, "scores " + t.score1 + "," + t.score2 + ": the PTR step passes on these data, so the overflow path is exercised");
            assertSame(SamplingRelease.fail(), t.release);
            assertEquals(List.of(), c.records.stream().map(LogRecord::getMessage).toList());
        }
    }

    /**
     * Spec §9 / design.md: a too-small n is refused before the data are touched, with the n needed. Below M the
     * covariance-aware mean used to throw a plain IllegalArgumentException without the certified n.
     */
    @Test
    void meanEstimatorBelowReferenceSizeNamesTheNeededN() {
        long need = CovarianceAwareMean.requiredRows(3, 1, 1e-6, 0.05, Double.NaN, PtrMechanism.SOUND);
        for (boolean uncertified : new boolean[] {false, true}) {
            InsufficientSampleSizeException e = assertThrows(InsufficientSampleSizeException.class,
                    () -> CovarianceAwareMean.of(500, 3, 1, 1e-6, 0.05, Double.NaN, PtrMechanism.SOUND, uncertified));
            assertEquals(need, e.requiredRows());
            assertTrue(e.getMessage().contains(SamplerParameters.sci(need)), e.getMessage());
        }
    }
}
