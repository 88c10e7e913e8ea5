package org.dpgauss.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Random123 known-answer vectors (tests/kat_vectors, "philox4x32 10"). */
class Philox4x32Test {

    @Test
    void katZero() {
        assertKat(new int[] {0, 0, 0, 0}, new int[] {0, 0},
                new int[] {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
    }

    @Test
    void katAllOnes() {
        assertKat(new int[] {-1, -1, -1, -1}, new int[] {-1, -1},
                new int[] {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
    }

    @Test
    void katPi() {
        assertKat(new int[] {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                new int[] {0xa4093822, 0x299f31d0},
                new int[] {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
    }

    @Test
    void blockMapsCounterAndStreamToCounterWords() {
        // counter words (c0,c1) = lo/hi(counter), (c2,c3) = lo/hi(stream); key (k0,k1) = lo/hi(key)
        Philox4x32 g = Philox4x32.withKey(0x299f31d0_a4093822L, 0x03707344_13198a2eL);
        int[] out = new int[4];
        g.block(0x85a308d3_243f6a88L, out);
        assertArrayEquals(new int[] {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}, out);
        assertEquals(0x299f31d0_a4093822L, g.key());
        assertEquals(0x03707344_13198a2eL, g.stream());
        Philox4x32 ones = Philox4x32.withKey(-1L, -1L);
        ones.block(-1L, out);
        assertArrayEquals(new int[] {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}, out);
    }

    @Test
    void withStreamKeepsKey() {
        Philox4x32 g = Philox4x32.withKey(42L, 0L).withStream(7L);
        assertEquals(42L, g.key());
        assertEquals(7L, g.stream());
    }

    @Test
    void validatesArguments() {
        int[] out = new int[4];
        assertThrows(IllegalArgumentException.class, () -> Philox4x32.philox(new int[3], new int[2], out));
        assertThrows(IllegalArgumentException.class, () -> Philox4x32.philox(new int[4], new int[3], out));
        assertThrows(IllegalArgumentException.class, () -> Philox4x32.philox(new int[4], new int[2], new int[3]));
        assertThrows(IllegalArgumentException.class, () -> Philox4x32.withKey(1, 2).block(0, new int[3]));
    }

    private static void assertKat(int[] ctr, int[] key, int[] expected) {
        int[] out = new int[4];
        Philox4x32.philox(ctr, key, out);
        assertArrayEquals(expected, out);
    }
}
