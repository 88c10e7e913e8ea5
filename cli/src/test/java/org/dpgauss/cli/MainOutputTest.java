package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.junit.jupiter.api.Test;

/** The one release renderer: FAIL, numbers, the insecure warning, exit codes. */
class MainOutputTest {

    private static PrivateRelease release(boolean fail, RandomSource random) {
        PrivateMechanism m = new PrivateMechanism() {
            @Override
            public NeighbouringRelation relation() {
                return NeighbouringRelation.REPLACE_ONE;
            }

            @Override
            public Statement state(PublicContext c) {
                return Statement.builder(c, "test.render", PrivacyGuarantee.zcdp(relation(), Zcdp.of(0.5), c.delta(),
                        true, null)).description("a test release").failMeaning("the test said so").build();
            }

            @Override
            public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
                return fail ? Outcome.fail() : Outcome.pass().vector("mean", new double[] {1.23456789, 1e-9}).build();
            }
        };
        return Releases.run(m, Dataset.of(new double[][] {{1, 2}}), 1e-6, ReleaseContext.of(CpuEngine.instance(),
                random));
    }

    @Test
    void aFailSaysWhatItCanMeanAndExitsThree() {
        Main main = new Main();
        StringWriter s = new StringWriter();
        main.spec = new picocli.CommandLine(main).getCommandSpec();
        main.spec.commandLine().setOut(new PrintWriter(s, true));
        assertEquals(Main.EXIT_FAIL, ReleasePrinter.print(main, release(true, RandomSource.secure()), Map.of()));
        String text = s.toString();
        assertTrue(text.startsWith("FAIL  test.render: nothing was released."), text);
        assertTrue(text.contains("what a FAIL means: the test said so"), text);
        assertFalse(text.contains("mean:"), text);
    }

    @Test
    void textRoundsAndJsonKeepsFullPrecision() {
        List<String> lines = ReleasePrinter.text(release(false, RandomSource.secure()), Map.of());
        assertTrue(lines.get(1).contains("[1.235, 1e-09]"), lines.toString());
        Map<String, Object> m = release(false, RandomSource.secure()).toMap();
        assertEquals(1.23456789, ((double[]) m.get("mean"))[0], 0.0);
        assertEquals("5.222", ReleasePrinter.fmt(Zcdp.of(0.5).toApproxDpTight(1e-6).epsilon()));
        assertEquals("1e-06", ReleasePrinter.fmt(1e-6));
        assertEquals("20000", ReleasePrinter.fmt(20000));
    }

    @Test
    void anInsecureReleaseIsFlaggedInTextAndJson() {
        PrivateRelease r = release(false, RandomSource.insecureSeeded(3L));
        List<String> lines = ReleasePrinter.text(r, Map.of());
        assertTrue(lines.get(lines.size() - 1).startsWith("WARNING: --insecure-seed"), lines.toString());
        assertEquals(Boolean.TRUE, r.toMap().get("insecure"));
        assertFalse(ReleasePrinter.text(release(false, RandomSource.secure()), Map.of()).toString()
                .contains("WARNING"));
    }
}
