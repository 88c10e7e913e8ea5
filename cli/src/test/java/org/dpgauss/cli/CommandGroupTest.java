package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The grouping commands share CommandGroup: without a subcommand they fail with a usage error naming them all. */
class CommandGroupTest {

    private static void assertMissing(String command, String list) {
        MainTest.Run r = MainTest.run(command);
        assertEquals(2, r.code, r.err);
        assertTrue(r.err.contains("missing subcommand: " + list), r.err);
        assertEquals("", r.out);
    }

    @Test
    void everyGroupNamesItsSubcommandsInOrder() {
        assertMissing("gx2", "cdf");
        assertMissing("calibrate", "gaussian or projection");
        assertMissing("mechanism", "blr or gpr");
        assertMissing("inspect", "stable-cov or stable-mean");
        assertMissing("ndis", "delta, epsilon, profile or audit");
    }

    @Test
    void groupsStillReachTheirSubcommandsAndTheParentOptions() {
        MainTest.Run r = MainTest.run("--json", "calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-6",
                "--sensitivity", "1");
        assertEquals(0, r.code, r.err);
        assertTrue(r.out.startsWith("{\"sigma\":"), r.out);
    }
}
