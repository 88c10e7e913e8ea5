package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.dpgauss.cpu.NeighbourCounts;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.progress.Progress;
import org.dpgauss.progress.ProgressListener;
import org.junit.jupiter.api.Test;

class TerminalProgressTest {

    @Test
    void quietForShortPhasesThenFractionElapsedAndTimeLeft() {
        long[] now = {0};
        StringWriter sw = new StringWriter();
        TerminalProgress p = new TerminalProgress(new PrintWriter(sw), () -> now[0]);
        p.update("phase", 0, 100);
        now[0] = 1000;
        p.update("phase", 10, 100);
        assertEquals("", sw.toString()); // under 2 s: silent
        now[0] = 4000;
        p.update("phase", 40, 100);
        String s = sw.toString();
        assertTrue(s.contains("phase:  40% (4 s, about 6 s left)"), s);
        p.finished("phase");
        assertTrue(sw.toString().endsWith(System.lineSeparator()), sw.toString());
    }

    @Test
    void neighbourCountsReportEveryTilePairOnce() {
        double[][] rows = new double[1500][3];
        for (int i = 0; i < rows.length; i++) {
            rows[i][0] = i % 17;
        }
        List<long[]> seen = new ArrayList<>();
        ProgressListener l = new ProgressListener() {
            @Override
            public synchronized void update(String phase, long done, long total) {
                seen.add(new long[] {done, total});
            }

            @Override
            public void finished(String phase) {
            }
        };
        Progress.with(l, () -> NeighbourCounts.count(RowBlockMatrix.of(rows), 2.0));
        long total = seen.get(0)[1];
        assertEquals(0, seen.get(0)[0]);
        long max = 0;
        for (long[] u : seen) {
            max = Math.max(max, u[0]);
        }
        assertEquals(total, max);
    }

    @Test
    void progressIsOffWhenAskedAndOnStderrOnly() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Main.run(new String[] {"--progress", "never", "gx2", "cdf", "--weights", "1", "--dof", "1",
            "--noncentrality", "0", "--x", "1", "--json"}, new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, rc, err.toString());
        assertTrue(out.toString().startsWith("{"), out.toString());
        assertEquals(2, Main.run(new String[] {"--progress", "sometimes", "gx2", "cdf", "--weights", "1", "--dof",
            "1", "--noncentrality", "0", "--x", "1"}, new PrintWriter(out), new PrintWriter(err)));
    }
}
