package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** {@code demo} runs Algorithm 1 with the known covariance and the folklore estimator on the demo data. */
class DemoAnisotropicTest {

    @Test
    void demoReportsTheAnisotropicAndFolkloreMeans() throws Exception {
        MainTest.Run r = MainTest.run("--insecure-seed", "5", "demo", "--n", "3000", "--d", "4", "--json");
        assertEquals(0, r.code, r.err);
        int found = 0;
        for (JsonNode m : r.json().get("mechanisms")) {
            String name = m.get("name").asText();
            if (!name.startsWith("anisotropic mean") && !name.startsWith("folklore mean")) {
                continue;
            }
            found++;
            assertEquals("PASS", m.get("status").asText(), r.out);
            assertEquals("replace-one", m.get("guarantee").get("relation").asText());
            assertTrue(m.get("guarantee_text").asText().contains("insecure"), m.get("guarantee_text").asText());
            assertFalse(m.get("guarantee").get("certified").asBoolean(), "--insecure-seed is never certified");
            // the noise norm is s chi_4-like around expected_error: 4x the typical value has probability < 1e-9
            double err = m.get("error").asDouble();
            double expected = m.get("expected_error").asDouble();
            assertTrue(err > 0 && err < 4 * expected, err + " vs " + expected);
        }
        assertEquals(2, found, r.out);
        MainTest.Run text = MainTest.run("--insecure-seed", "5", "demo", "--n", "3000", "--d", "4");
        assertTrue(text.out.contains("anisotropic mean, known covariance proxy (mean.anisotropic) [PASS]"), text.out);
        for (String line : text.out.split("\n")) {
            assertTrue(line.length() < 100, "demo line over 99 characters: " + line);
        }
    }
}
