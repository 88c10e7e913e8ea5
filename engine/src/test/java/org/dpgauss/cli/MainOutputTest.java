package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

/** The release-output helpers the commands share (FAIL, randomness fields, insecure warning). */
class MainOutputTest {

    @Test
    void failPrintsOnlyTheStatus() {
        Main main = new Main();
        StringWriter s = new StringWriter();
        main.json = true;
        main.printFail(new PrintWriter(s, true));
        main.json = false;
        main.printFail(new PrintWriter(s, true));
        assertEquals("{\"status\":\"FAIL\"}" + System.lineSeparator() + "FAIL" + System.lineSeparator(), s.toString());
    }

    @Test
    void randomnessFieldsAndWarningFollowTheSource() {
        RandomSource seeded = RandomSource.insecureSeeded(3L);
        Map<String, Object> m = new LinkedHashMap<>();
        Main.putRandomness(m, seeded);
        assertEquals(Map.of("insecure", true, "randomness", seeded.describe()), m);
        Main.putRandomness(m, RandomSource.secure());
        assertEquals(false, m.get("insecure"));

        StringWriter s = new StringWriter();
        Main.warnIfInsecure(new PrintWriter(s, true), RandomSource.secure(), "noise");
        assertEquals("", s.toString());
        Main.warnIfInsecure(new PrintWriter(s, true), seeded, "noise");
        assertEquals("WARNING: --insecure-seed was given: the noise above is predictable and NOT private."
                + System.lineSeparator(), s.toString());
    }
}
