package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The demo's privacy profile (exact NDIS accounting beside the zCDP conversion) under lower-camelCase keys. */
class DemoPrivacyProfileTest {

    @Test
    void privacyProfileKeysAreCamelCaseAndTheExactEpsilonIsTheSmaller() throws Exception {
        MainTest.Run r = MainTest.run("--insecure-seed", "5", "demo", "--n", "2000", "--d", "3", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode p = r.json().get("privacyProfile");
        assertTrue(p != null && p.isObject(), r.out);
        assertEquals(1e-6, p.get("atDelta").asDouble());
        assertTrue(p.get("exactEpsilon").asDouble() <= p.get("zcdpEpsilon").asDouble(), p.toString());
        for (java.util.Iterator<String> it = p.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            assertTrue(k.matches("[a-z][a-zA-Z0-9]*"), k);
        }
    }
}
