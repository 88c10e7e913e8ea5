package org.dpgauss.cpu.openblas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.DoubleBuffer;
import org.junit.jupiter.api.Test;

/**
 * The buffer rules the native calls rely on: aligned, native-order direct buffers at position 0, scratch reuse, and
 * the guard that turns a would-be overrun in C into an exception. On linux-x86_64 the natives must load.
 */
class NativeBlasTest {

    static boolean nativesUsable() {
        return NativeBlas.available();
    }

    @Test
    void nativesLoadOnLinuxX86() {
        boolean expected = "linux".equalsIgnoreCase(System.getProperty("os.name"))
                && ("amd64".equals(System.getProperty("os.arch")) || "x86_64".equals(System.getProperty("os.arch")))
                && !Boolean.getBoolean(NativeBlas.DISABLE_PROPERTY);
        if (expected) {
            assertNull(NativeBlas.unavailableReason(), "the build fetched the linux-x86_64 natives");
            assertTrue(NativeBlas.threads() >= 1);
            assertTrue(NativeBlas.version().startsWith("OpenBLAS "), NativeBlas.version());
        }
    }

    @Test
    @org.junit.jupiter.api.condition.EnabledIf("nativesUsable")
    void buffersAreDirectNativeOrderAlignedAndAtPositionZero() {
        for (long n : new long[] {1, 3, 1000, 12345}) {
            DoubleBuffer b = NativeBlas.allocate(n);
            assertTrue(b.isDirect());
            assertEquals(java.nio.ByteOrder.nativeOrder(), b.order());
            assertEquals(0, b.position());
            assertEquals(n, b.capacity());
            assertEquals(0, new org.bytedeco.javacpp.DoublePointer(b).address() % 64, "64-byte aligned");
        }
    }

    @Test
    void scratchIsReusedPerThreadAndSlot() {
        DoubleBuffer a = NativeBlas.scratch(3, 100);
        a.position(7);
        DoubleBuffer again = NativeBlas.scratch(3, 50);
        assertSame(a, again, "same thread, same slot, big enough: reused");
        assertEquals(0, again.position(), "handed out at position 0");
        assertTrue(NativeBlas.scratch(3, 1000).capacity() >= 1000, "grown on demand");
    }

    @Test
    void theGuardRejectsAMovedOrShortBuffer() {
        DoubleBuffer b = NativeBlas.allocate(10);
        assertSame(b, OpenBlasPrimitives.room(b, 10));
        assertThrows(IllegalStateException.class, () -> OpenBlasPrimitives.room(b, 11), "too short");
        b.position(1);
        assertThrows(IllegalStateException.class, () -> OpenBlasPrimitives.room(b, 2), "javacpp would add the position");
    }
}
