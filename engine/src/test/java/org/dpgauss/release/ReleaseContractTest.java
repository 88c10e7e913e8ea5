package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;

/** The release path: statement before data, one assembled release, certification derived in one place. */
class ReleaseContractTest {

    private static final NeighbouringRelation R = NeighbouringRelation.REPLACE_ONE;

    /** A mechanism that counts how often it computed and can be told to FAIL. */
    static final class Probe implements PrivateMechanism {
        int computed;
        final boolean fail;
        final boolean recipeCertified;

        Probe(boolean fail, boolean recipeCertified) {
            this.fail = fail;
            this.recipeCertified = recipeCertified;
        }

        @Override
        public NeighbouringRelation relation() {
            return R;
        }

        @Override
        public Statement state(PublicContext c) {
            return Statement.builder(c, "test.probe", PrivacyGuarantee.zcdp(R, Zcdp.of(0.1), c.delta(),
                    recipeCertified, "probe")).description("a probe")
                    .parameters(PublicParameters.builder().put("n", c.rows()).build())
                    .failMeaning("the probe was told to fail").build();
        }

        @Override
        public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
            computed++;
            return fail ? Outcome.fail() : Outcome.pass().vector("mean", data.matrix().columnMeans()).build();
        }
    }

    private static Dataset data() {
        return Dataset.of(new double[][] {{1, 2}, {3, 4}, {5, 6}});
    }

    private static ReleaseContext ctx(RandomSource r) {
        return ReleaseContext.of(CpuEngine.instance(), r);
    }

    @Test
    void certificationIsWithdrawnForAnInsecureSourceAndOnlyThere() {
        PrivateRelease secure = Releases.run(new Probe(false, true), data(), 1e-6, ctx(RandomSource.secure()));
        assertTrue(secure.guarantee().certified());
        assertFalse(secure.insecure());
        PrivateRelease seeded = Releases.run(new Probe(false, true), data(), 1e-6, ctx(RandomSource.insecureSeeded(7)));
        assertFalse(seeded.guarantee().certified());
        assertTrue(seeded.insecure());
        assertTrue(seeded.guarantee().notes().contains("insecure"), seeded.guarantee().notes());
        // an uncertified recipe stays uncertified with a secure source
        assertFalse(Releases.run(new Probe(false, false), data(), 1e-6, ctx(RandomSource.secure()))
                .guarantee().certified());
    }

    @Test
    void theClippedMeanWithASeedIsNotCertified() {
        // issue 14 finding 5: ClippedGaussianMean hard-coded "certified": true beside "insecure": true
        ClippedGaussianMean m = ClippedGaussianMean.builder().clipRadius(5).rho(0.5).build(2);
        PrivateRelease r = Releases.run(m, data(), 1e-6, ctx(RandomSource.insecureSeeded(7)));
        assertFalse(r.guarantee().certified());
        assertEquals(Boolean.FALSE, ((Map<?, ?>) r.toMap().get("guarantee")).get("certified"));
    }

    @Test
    void aFailCarriesNoValuesButItsPublicStatement() {
        PrivateRelease r = Releases.run(new Probe(true, true), data(), 1e-6, ctx(RandomSource.insecureSeeded(1)));
        assertEquals(ReleaseStatus.FAIL, r.status());
        assertTrue(r.values().isEmpty());
        assertThrows(IllegalStateException.class, () -> r.vector("mean"));
        Map<String, Object> m = r.toMap();
        assertEquals(List.of("status", "mechanism", "parameters", "guarantee", "failMeaning", "insecure",
                "randomness"), List.copyOf(m.keySet()));
        PrivateRelease p = Releases.run(new Probe(false, true), data(), 1e-6, ctx(RandomSource.insecureSeeded(1)));
        assertEquals(List.of("status", "mechanism", "mean", "parameters", "guarantee", "insecure", "randomness"),
                List.copyOf(p.toMap().keySet()));
        assertArrayEquals(new double[] {3, 4}, p.vector("mean"), 0.0);
    }

    @Test
    void releasedValuesAreCopies() {
        PrivateRelease p = Releases.run(new Probe(false, true), data(), 1e-6, ctx(RandomSource.insecureSeeded(1)));
        p.vector("mean")[0] = 99;
        assertEquals(3.0, p.vector("mean")[0], 0.0);
        assertThrows(UnsupportedOperationException.class, () -> p.values().clear());
    }

    @Test
    void namesFollowOneRule() {
        assertThrows(IllegalArgumentException.class, () -> PublicParameters.builder().put("noise_sigma", 1.0));
        assertThrows(IllegalArgumentException.class, () -> PublicParameters.builder().put("Sigma", 1.0));
        assertThrows(IllegalArgumentException.class, () -> PublicParameters.builder().put("a", 1.0).put("a", 2.0));
        assertThrows(IllegalArgumentException.class, () -> Outcome.pass().scalar("clipped_rows", 1.0));
        assertThrows(IllegalStateException.class, () -> Outcome.pass().build());
    }

    @Test
    void nIsPrivateUnderAddRemove() {
        PublicContext c = PublicContext.of(data(), NeighbouringRelation.ADD_REMOVE, 1e-6);
        assertEquals(2, c.dimension());
        assertThrows(IllegalStateException.class, c::rows);
        assertEquals(3, PublicContext.of(data(), R, 1e-6).rows());
    }

    @Test
    void oneConversionPolicyEverywhere() {
        // issue 14 finding 10: at rho = 0.5, delta = 1e-6 the clipped mean said eps 5.757 (Bun-Steinke) and
        // Analyze Gauss 5.222 (CKS20 Cor. 13); both now use ConversionPolicy
        ClippedGaussianMean m = ClippedGaussianMean.builder().clipRadius(1).rho(0.5).build(2);
        PrivacyGuarantee g = m.guarantee(1e-6);
        double eps = g.approxDp().orElseThrow().epsilon();
        assertEquals(Zcdp.of(0.5).toApproxDpTight(1e-6).epsilon(), eps, 0.0);
        assertEquals(5.222, eps, 5e-4);
        assertNotEquals(Zcdp.of(0.5).toApproxDp(1e-6).epsilon(), eps, 0.1);
        assertEquals(ConversionPolicy.NAME, g.conversion());
    }

    @Test
    void rhoForIsTheInverseOfTheConversion() {
        for (double eps : new double[] {0.01, 0.1, 1, 3, 10}) {
            for (double delta : new double[] {1e-10, 1e-6, 1e-3}) {
                Zcdp z = ConversionPolicy.rhoFor(eps, delta);
                assertTrue(ConversionPolicy.toApproxDp(z, delta).epsilon() <= eps, eps + " " + delta);
                assertTrue(ConversionPolicy.toApproxDp(Zcdp.of(z.rho() * (1 + 1e-9)), delta).epsilon() > eps * (1
                        - 1e-12) - 1e-15, eps + " " + delta);
                // never more noise than the Bun-Steinke inverse
                assertTrue(z.rho() >= Zcdp.forApproxDp(eps, delta).rho());
            }
        }
    }

    @Test
    void statementsRejectAMismatchedRelation() {
        PublicContext c = PublicContext.of(data(), NeighbouringRelation.ADD_REMOVE, 1e-6);
        PrivacyGuarantee g = PrivacyGuarantee.approxDp(R, ApproxDp.of(1, 1e-6), true, null);
        assertThrows(IllegalArgumentException.class, () -> Statement.builder(c, "test.x", g));
        assertThrows(IllegalArgumentException.class, () -> Statement.builder(PublicContext.of(data(), R, 1e-6),
                "Test_X", g));
    }
}
