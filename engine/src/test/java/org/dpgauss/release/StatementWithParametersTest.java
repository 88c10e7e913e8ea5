package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.junit.jupiter.api.Test;

/** A statement with parameters added (where a release was computed) is otherwise the same statement. */
class StatementWithParametersTest {

    @Test
    void addsAfterTheOwnParametersAndKeepsTheRest() {
        Statement s = AnalyzeGauss.of(1.5, Zcdp.of(0.5)).state(
                PublicContext.forPlanning(100, 3, NeighbouringRelation.REPLACE_ONE, 1e-6));
        Statement w = s.withParameters(PublicParameters.builder().put("executorEngine", "cpu-ejml").build());
        List<String> names = List.copyOf(w.parameters().names());
        assertEquals("executorEngine", names.get(names.size() - 1));
        assertEquals(s.parameters().names().size() + 1, names.size());
        java.util.Map<String, Object> own = s.parameters().toMap();
        java.util.Map<String, Object> rest = new java.util.LinkedHashMap<>(w.parameters().toMap());
        assertEquals("cpu-ejml", rest.remove("executorEngine"));
        assertEquals(own.keySet(), rest.keySet());
        for (String k : own.keySet()) {
            assertTrue(java.util.Objects.deepEquals(own.get(k), rest.get(k)), k);
        }
        assertEquals(s.mechanism(), w.mechanism());
        assertEquals(s.description(), w.description());
        assertSame(s.guarantee(), w.guarantee());
        assertSame(s.accounting(), w.accounting());
        assertEquals(s.failMeaning(), w.failMeaning());
        assertSame(s.accuracy().orElseThrow(), w.accuracy().orElseThrow());
        assertSame(s.context(), w.context());
        String existing = s.parameters().names().iterator().next();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.withParameters(PublicParameters.builder()
                .put(existing, 1.0).build())).getMessage().contains("given twice"));
    }
}
