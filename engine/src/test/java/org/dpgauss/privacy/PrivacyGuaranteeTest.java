package org.dpgauss.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PrivacyGuaranteeTest {

    @Test
    void neighbouringRelationDescriptionsAndIds() {
        assertEquals("replace-one: datasets of equal size differing in one row",
                NeighbouringRelation.REPLACE_ONE.description());
        assertEquals("add/remove: one dataset has one extra row", NeighbouringRelation.ADD_REMOVE.description());
        assertEquals("replace-one", NeighbouringRelation.REPLACE_ONE.id());
        assertEquals("add-remove", NeighbouringRelation.ADD_REMOVE.id());
        for (NeighbouringRelation r : NeighbouringRelation.values()) {
            assertEquals(r, NeighbouringRelation.fromId(r.id()));
            assertEquals(r, NeighbouringRelation.fromId(r.name()));
        }
        assertEquals(NeighbouringRelation.ADD_REMOVE, NeighbouringRelation.fromId("add/remove"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NeighbouringRelation.fromId("swap"));
        assertEquals("neighbouring relation 'swap' is unknown: expected one of replace-one, add-remove",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NeighbouringRelation.fromId(null));
    }

    @Test
    void zcdpToMapHasFixedKeysAndOrder() {
        PrivacyGuarantee g = PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, Zcdp.of(0.5), 1e-6, true, null);
        Map<String, Object> m = g.toMap();
        assertTrue(m instanceof LinkedHashMap);
        assertEquals(List.of("relation", "type", "rho", "epsilon", "delta", "conversion", "certified"),
                List.copyOf(m.keySet()));
        assertEquals(ConversionPolicy.NAME, m.get("conversion"));
        assertEquals("replace-one", m.get("relation"));
        assertEquals("zCDP", m.get("type"));
        assertEquals(0.5, m.get("rho"));
        assertEquals(Zcdp.of(0.5).toApproxDpTight(1e-6).epsilon(), m.get("epsilon"));
        assertEquals(1e-6, m.get("delta"));
        assertEquals(Boolean.TRUE, m.get("certified"));
        assertTrue(g.isZcdp());
        assertEquals("zCDP", g.type());
        assertEquals(Optional.of(Zcdp.of(0.5)), g.zcdp());
        assertEquals(Optional.of(Zcdp.of(0.5).toApproxDpTight(1e-6)), g.approxDp());
    }

    @Test
    void zcdpWithoutImpliedGuaranteeOmitsEpsilonAndDelta() {
        PrivacyGuarantee g = PrivacyGuarantee.zcdp(NeighbouringRelation.ADD_REMOVE, Zcdp.of(0.25), null, false,
                "  seeded run  ");
        assertEquals(List.of("relation", "type", "rho", "certified", "notes"), List.copyOf(g.toMap().keySet()));
        assertEquals("seeded run", g.notes());
        assertEquals(Boolean.FALSE, g.toMap().get("certified"));
        assertEquals(Optional.empty(), g.approxDp());
        assertEquals("(rho=0.25)-zCDP, under add-remove neighbours; NOT certified (seeded run)", g.describe());
    }

    @Test
    void approxDpGuarantee() {
        PrivacyGuarantee g = PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, ApproxDp.of(1.0, 1e-6), true,
                "");
        Map<String, Object> m = g.toMap();
        assertEquals(List.of("relation", "type", "epsilon", "delta", "certified"), List.copyOf(m.keySet()));
        assertEquals("add-remove", m.get("relation"));
        assertEquals("approxDP", m.get("type"));
        assertEquals(1.0, m.get("epsilon"));
        assertFalse(g.isZcdp());
        assertEquals(Optional.empty(), g.zcdp());
        assertEquals("(eps=1.0, delta=1e-06)-DP, under add-remove neighbours; certified", g.describe());
    }

    @Test
    void describeIsOneLine() {
        PrivacyGuarantee g = PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, Zcdp.of(0.5), 1e-6, true,
                "clipped to norm 1\nsecure noise");
        assertEquals("(rho=0.5)-zCDP, implying (eps=" + Zcdp.of(0.5).toApproxDpTight(1e-6).epsilon()
                + ", delta=1e-06)-DP, under replace-one"
                + " neighbours; certified (clipped to norm 1 secure noise)", g.describe());
        assertFalse(g.describe().contains("\n"));
        assertEquals(g.describe(), g.toString());
    }

    @Test
    void nullsAreRejected() {
        assertThrows(NullPointerException.class,
                () -> PrivacyGuarantee.approxDp(null, ApproxDp.ZERO, true, null));
        assertThrows(NullPointerException.class,
                () -> PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, null, true, null));
        assertThrows(NullPointerException.class,
                () -> PrivacyGuarantee.zcdp(NeighbouringRelation.ADD_REMOVE, null, null, true, null));
        assertThrows(NullPointerException.class,
                () -> PrivacyGuarantee.zcdp(NeighbouringRelation.ADD_REMOVE, null, 1e-6, true, null));
        assertThrows(IllegalArgumentException.class,
                () -> PrivacyGuarantee.zcdp(NeighbouringRelation.ADD_REMOVE, Zcdp.of(1), 0.0, true, null));
    }

    @Test
    void equality() {
        PrivacyGuarantee a = PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, Zcdp.of(0.5), 1e-6, true, "x");
        PrivacyGuarantee b = PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, Zcdp.of(0.5), 1e-6, true,
                " x ");
        // the same numbers by another (named) conversion are another statement
        assertFalse(a.equals(PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, Zcdp.of(0.5),
                Zcdp.of(0.5).toApproxDpTight(1e-6), true, "x")));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertFalse(a.equals(PrivacyGuarantee.zcdp(NeighbouringRelation.ADD_REMOVE, Zcdp.of(0.5), 1e-6, true, "x")));
        assertFalse(a.equals(PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, Zcdp.of(0.5), 1e-6, false, "x")));
    }
}
