package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accounting commands' contract (design.md "Command line"): JSON shapes, golden values from
 * docs/references/reference-values.md and docs/references/ndis-values.md (spec ndis §9.2), and clear errors with exit code 1.
 */
class AccountingCommandsTest {

    private static MainTest.Run run(String... args) {
        return MainTest.run(args);
    }

    @Test
    void calibrateGaussianMatchesBalleWang() throws Exception {
        MainTest.Run r = run("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--sensitivity", "1", "--json");
        assertEquals(0, r.code, r.err);
        // docs/references/reference-values.md §2.1: eps=1, delta=1e-5 -> 3.73063163481594
        assertEquals(3.73063163481594, r.json().get("sigma").asDouble(), 1e-9);
        MainTest.Run s = run("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--sensitivity", "2", "--json");
        assertEquals(2 * 3.73063163481594, s.json().get("sigma").asDouble(), 2e-9);
    }

    @Test
    void calibrateProjectionMatchesLemma4() throws Exception {
        MainTest.Run r = run("calibrate", "projection", "--epsilon", "1", "--delta", "1e-5", "--rank", "10",
                "--row-bound", "1", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        // docs/references/reference-values.md §4: p* = 0.0723628417081, ridge = 13.8192472323 l^2
        assertEquals(0.0723628417081, j.get("leverage").asDouble(), 1e-12);
        assertEquals(13.8192472323, j.get("ridge").asDouble(), 1e-9);
        // docs/references/ndis-values.md §3.1 (spec ndis §7 item 1): eps / (4 (sqrt(2 r ln(4/delta)) + ln(4/delta)))
        double l = Math.log(4 / 1e-5);
        assertEquals(1 / (4 * (Math.sqrt(20 * l) + l)), j.get("lsvLeverage").asDouble(), 1e-15);
        MainTest.Run scaled = run("calibrate", "projection", "--epsilon", "1", "--delta", "1e-5", "--rank", "10",
                "--row-bound", "3", "--json");
        assertEquals(9 * 13.8192472323, scaled.json().get("ridge").asDouble(), 1e-8);
    }

    @Test
    void calibrateRejectsBadParameters() {
        MainTest.Run r = run("calibrate", "gaussian", "--epsilon", "1", "--delta", "0", "--json");
        assertEquals(1, r.code);
        assertTrue(r.err.contains("delta"), r.err);
        MainTest.Run p = run("calibrate", "projection", "--epsilon", "1", "--delta", "1e-5", "--rank", "0");
        assertEquals(1, p.code);
        assertTrue(p.err.contains("r"), p.err);
        assertEquals(2, run("calibrate", "projection", "--epsilon", "1").code);
    }

    @Test
    void gx2CdfReproducesDaviesAndImhof() throws Exception {
        MainTest.Run r = run("gx2", "cdf", "--weights", "6,3,1", "--dof", "1,1,1", "--x", "1,7,20", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode cdf = r.json().get("cdf");
        // docs/references/reference-values.md §1.1, Davies (1980) Table 3
        assertEquals(0.0542138460670465, cdf.get(0).asDouble(), 1e-12);
        assertEquals(0.493561766530187, cdf.get(1).asDouble(), 1e-12);
        assertEquals(0.876040925837674, cdf.get(2).asDouble(), 1e-12);
        MainTest.Run m = run("gx2", "cdf", "--weights", "7,3,-7,-3", "--dof", "6,2,1,1", "--noncentrality", "6,2,6,2",
                "--x", "-40,40,140", "--json");
        JsonNode mc = m.json().get("cdf");
        assertEquals(0.0782079509588576, mc.get(0).asDouble(), 1e-12);
        assertEquals(0.52210669202666, mc.get(1).asDouble(), 1e-12);
        assertEquals(0.960368083215212, mc.get(2).asDouble(), 1e-12);
        // Imhof (1961) Table 1, upper tail
        MainTest.Run u = run("gx2", "cdf", "--weights", "0.7,0.3", "--noncentrality", "6,2", "--x", "15", "--upper",
                "--json");
        assertEquals(0.0223431288002791, u.json().get("sf").get(0).asDouble(), 1e-12);
    }

    @Test
    void gx2RejectsMismatchedLengths() {
        MainTest.Run r = run("gx2", "cdf", "--weights", "1,2", "--dof", "1", "--x", "1");
        assertEquals(1, r.code);
        assertTrue(r.err.contains("--dof has 1 values but --weights has 2"), r.err);
        MainTest.Run z = run("gx2", "cdf", "--weights", "1,0", "--x", "1");
        assertEquals(1, z.code);
        assertTrue(z.err.contains("weight"), z.err);
    }

    private static Path pair(Path dir, String json) throws Exception {
        Path p = dir.resolve("pair.json");
        Files.writeString(p, json);
        return p;
    }

    @Test
    void ndisDeltaReproducesTheSpecExampleInBothOrderings(@TempDir Path dir) throws Exception {
        Path p = pair(dir, "{\"mean1\":[1,0],\"cov1\":[[2,0.5],[0.5,1]],\"mean2\":[0,0],\"cov2\":[[1,0],[0,1]]}");
        MainTest.Run r = run("ndis", "delta", "--pair", p.toString(), "--epsilon", "0,0.5,1,2", "--both-orderings",
                "--json");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        // docs/references/ndis-values.md §1.4 (spec ndis §9.2), 2-D general (6 digits printed; grid integration +-2e-6 for the reverse)
        double[] forward = {0.352328, 0.261384, 0.194608, 0.107435};
        double[] reverse = {0.352328, 0.158453, 0.0593047, 0.00614849};
        for (int i = 0; i < 4; i++) {
            assertEquals(forward[i], j.get("delta").get(i).asDouble(), 2e-6);
            assertEquals(reverse[i], j.get("deltaReversed").get(i).asDouble(), 2e-6);
            assertEquals(Math.max(forward[i], reverse[i]), j.get("profile").get(i).asDouble(), 2e-6);
        }
        MainTest.Run plain = run("ndis", "delta", "--pair", p.toString(), "--epsilon", "1", "--json");
        assertEquals(2, plain.json().size(), "contract shape {epsilon, delta}: " + plain.out);
    }

    @Test
    void ndisDeltaOneDimensionalGoldenValues(@TempDir Path dir) throws Exception {
        // docs/references/reference-values.md §3: P=N(0,2), Q=N(10,1), eps=10 -> 0.9988608830924075 (variances)
        Path p = pair(dir, "{\"mean1\":[0],\"cov1\":[[2]],\"mean2\":[10],\"cov2\":[[1]]}");
        MainTest.Run r = run("ndis", "delta", "--pair", p.toString(), "--epsilon", "10", "--json");
        assertEquals(0, r.code, r.err);
        assertEquals(0.9988608830924075, r.json().get("delta").get(0).asDouble(), 1e-9);
    }

    @Test
    void ndisPairFileErrorsNameTheFileAndKey(@TempDir Path dir) throws Exception {
        Path missing = pair(dir, "{\"mean1\":[0],\"cov1\":[[2]],\"mean2\":[1]}");
        MainTest.Run r = run("ndis", "delta", "--pair", missing.toString(), "--epsilon", "1");
        assertEquals(1, r.code);
        assertTrue(r.err.contains("pair.json") && r.err.contains("cov2"), r.err);
        Path ragged = pair(dir, "{\"mean1\":[0,0],\"cov1\":[[2,0],[0]],\"mean2\":[1,1],\"cov2\":[[1,0],[0,1]]}");
        MainTest.Run g = run("ndis", "delta", "--pair", ragged.toString(), "--epsilon", "1");
        assertEquals(1, g.code);
        assertTrue(g.err.contains("cov1 row 2"), g.err);
        Path notPsd = pair(dir, "{\"mean1\":[0,0],\"cov1\":[[1,2],[2,1]],\"mean2\":[1,1],\"cov2\":[[1,0],[0,1]]}");
        MainTest.Run n = run("ndis", "delta", "--pair", notPsd.toString(), "--epsilon", "1");
        assertEquals(1, n.code, n.out);
        Path text = pair(dir, "not json");
        assertEquals(1, run("ndis", "delta", "--pair", text.toString(), "--epsilon", "1").code);
        assertEquals(1, run("ndis", "delta", "--pair", dir.resolve("nope.json").toString(), "--epsilon", "1").code);
    }

    @Test
    void ndisEpsilonInvertsTheProfile(@TempDir Path dir) throws Exception {
        // Equal covariances: the analytic Gaussian mechanism with tau = 1; docs/references/reference-values.md §2.2: delta(1) = 0.1269367375066439
        Path p = pair(dir, "{\"mean1\":[0],\"cov1\":[[1]],\"mean2\":[1],\"cov2\":[[1]]}");
        MainTest.Run r = run("ndis", "epsilon", "--pair", p.toString(), "--delta", "0.1269367375066439", "--json");
        assertEquals(0, r.code, r.err);
        assertEquals(1.0, r.json().get("epsilon").asDouble(), 1e-8);
        assertTrue(r.json().get("bounded").asBoolean());
        Path disjoint = pair(dir, "{\"mean1\":[0,0],\"cov1\":[[1,0],[0,0]],\"mean2\":[0,0],\"cov2\":[[1,0],[0,1]]}");
        MainTest.Run d = run("ndis", "epsilon", "--pair", disjoint.toString(), "--delta", "1e-6", "--json");
        assertEquals(0, d.code, d.err);
        assertTrue(d.json().get("epsilon").isNull(), d.out);
        assertTrue(!d.json().get("bounded").asBoolean(), d.out);
    }

    @Test
    void ndisAuditRefutesAnUnderstatedClaimAndAcceptsTheTrueOne(@TempDir Path dir) throws Exception {
        // docs/references/ndis-values.md §1.4 (spec ndis §9.2) 2-D example: delta_{X,Y}(1) = 0.194608 (the larger ordering)
        Path p = pair(dir, "{\"mean1\":[1,0],\"cov1\":[[2,0.5],[0.5,1]],\"mean2\":[0,0],\"cov2\":[[1,0],[0,1]]}");
        MainTest.Run bad = run("ndis", "audit", "--pair", p.toString(), "--epsilon", "1", "--delta", "0.19",
                "--eta", "1e-6", "--grid", "0.5,2", "--json");
        assertEquals(0, bad.code, bad.err);
        JsonNode b = bad.json();
        assertTrue(b.get("refuted").asBoolean(), bad.out);
        assertEquals(0.194608, b.get("worstLowerBound").asDouble(), 2e-6);
        assertEquals(6, b.get("rows").size(), "3 epsilons x 2 orderings");
        MainTest.Run ok = run("ndis", "audit", "--pair", p.toString(), "--epsilon", "1", "--delta", "0.1947",
                "--eta", "1e-6", "--json");
        assertTrue(!ok.json().get("refuted").asBoolean(), ok.out);
        MainTest.Run text = run("ndis", "audit", "--pair", p.toString(), "--epsilon", "1", "--delta", "0.19");
        assertTrue(text.out.contains("REFUTED"), text.out);
    }

    /**
     * Issue 14 (one naming rule): every JSON key the no-data commands print, at any depth, is lower camelCase, like
     * the release contract's. They release nothing private, so they keep their own shapes.
     */
    @Test
    void accountingJsonKeysAreLowerCamelCase(@TempDir Path dir) throws Exception {
        Path p = pair(dir, "{\"mean1\":[1,0],\"cov1\":[[2,0.5],[0.5,1]],\"mean2\":[0,0],\"cov2\":[[1,0],[0,1]]}");
        String[][] commands = {
            {"calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--json"},
            {"calibrate", "projection", "--epsilon", "1", "--delta", "1e-5", "--rank", "3", "--json"},
            {"gx2", "cdf", "--weights", "1,-2", "--x", "0.5", "--error-bounds", "--json"},
            {"gx2", "cdf", "--weights", "1", "--x", "0.5", "--upper", "--json"},
            {"ndis", "delta", "--pair", p.toString(), "--epsilon", "0,1", "--both-orderings", "--json"},
            {"ndis", "epsilon", "--pair", p.toString(), "--delta", "0.01", "--json"},
            {"ndis", "audit", "--pair", p.toString(), "--epsilon", "1", "--delta", "0.2", "--eta", "1e-6", "--json"}};
        for (String[] c : commands) {
            MainTest.Run r = run(c);
            assertEquals(0, r.code, String.join(" ", c) + ": " + r.err);
            assertCamel(r.json(), String.join(" ", c));
        }
    }

    private static void assertCamel(JsonNode j, String where) {
        if (j.isObject()) {
            for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = j.fields(); it.hasNext(); ) {
                java.util.Map.Entry<String, JsonNode> e = it.next();
                assertTrue(e.getKey().matches("[a-z][a-zA-Z0-9]*"), where + ": key " + e.getKey());
                assertCamel(e.getValue(), where);
            }
        } else if (j.isArray()) {
            for (JsonNode v : j) {
                assertCamel(v, where);
            }
        }
    }
}
