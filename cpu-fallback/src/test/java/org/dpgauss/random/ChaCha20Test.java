package org.dpgauss.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

/**
 * RFC 8439 test vectors. RFC nonces (n0, n1, n2) map to this layout as
 * {@code counter = (n0 << 32) | blockCounter}, {@code stream = n1 | (n2 << 32)}.
 */
class ChaCha20Test {

    private static final int[] RFC_KEY = wordsLe(bytes(
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"));
    private static final int[] ZERO_KEY = new int[8];

    @Test
    void quarterRoundSection211() {
        int[] x = {0x11111111, 0x01020304, 0x9b8d6f43, 0x01234567};
        ChaCha20.quarterRound(x, 0, 1, 2, 3);
        assertArrayEquals(new int[] {0xea2a92f4, 0xcb1cf8ce, 0x4581472e, 0x5881c4bb}, x);
    }

    @Test
    void blockFunctionSection232() {
        // nonce 00:00:00:09:00:00:00:4a:00:00:00:00 -> n0 = 0x09000000, n1 = 0x4a000000, n2 = 0
        ChaCha20 c = ChaCha20.withKey(RFC_KEY, 0x4a000000L);
        int[] out = new int[16];
        c.block(0x09000000_00000001L, out);
        assertArrayEquals(new int[] {
            0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3,
            0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
            0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
            0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2}, out);
        // serialized form given in the RFC
        assertArrayEquals(bytes("10f1e7e4d13b5915500fdd1fa32071c4"), java.util.Arrays.copyOf(serialize(out), 16));
    }

    @Test
    void encryptionSection242() {
        // nonce 00:00:00:00:00:00:00:4a:00:00:00:00, initial block counter 1
        ChaCha20 c = ChaCha20.withKey(RFC_KEY, 0x4a000000L);
        byte[] plain = ("Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
                + "for the future, sunscreen would be it.").getBytes(StandardCharsets.US_ASCII);
        assertEquals(114, plain.length);
        byte[] expected = bytes(
                "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
                + "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
                + "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
                + "5af90bbf74a35be6b40b8eedf2785e42874d");
        byte[] cipher = new byte[plain.length];
        int[] ks = new int[16];
        for (int i = 0; i < plain.length; i += 64) {
            c.block(1 + i / 64, ks);
            byte[] ksBytes = serialize(ks);
            for (int j = i; j < Math.min(plain.length, i + 64); j++) {
                cipher[j] = (byte) (plain[j] ^ ksBytes[j - i]);
            }
        }
        assertArrayEquals(expected, cipher);
    }

    @Test
    void appendixA1Vector1() {
        assertKeystream(ZERO_KEY, 0L, 0L,
                "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
                + "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586");
    }

    @Test
    void appendixA1Vector2() {
        assertKeystream(ZERO_KEY, 0L, 1L,
                "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
                + "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f");
    }

    @Test
    void appendixA1Vector3() {
        int[] key = new int[8];
        key[7] = 0x01000000; // key byte 31 = 0x01
        assertKeystream(key, 0L, 1L,
                "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
                + "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0");
    }

    @Test
    void appendixA1Vector5ExercisesStreamHighWord() {
        // nonce byte 11 = 0x02 -> n2 = 0x02000000 -> stream = n2 << 32 (state word 15)
        ChaCha20 c = ChaCha20.withKey(ZERO_KEY, 0x02000000_00000000L);
        int[] out = new int[16];
        c.block(0L, out);
        assertArrayEquals(new int[] {
            0x374dc6c2, 0x3736d58c, 0xb904e24a, 0xcd3f93ef,
            0x88228b1a, 0x96a4dfb3, 0x5b76ab72, 0xc727ee54,
            0x0e0e978a, 0xf3145c95, 0x1b748ea8, 0xf786c297,
            0x99c28f5f, 0x628314e8, 0x398a19fa, 0x6ded1b53}, out);
    }

    @Test
    void keyIsDefensivelyCopied() {
        int[] key = RFC_KEY.clone();
        ChaCha20 c = ChaCha20.withKey(key, 0x4a000000L);
        int[] before = new int[16];
        c.block(7, before);
        key[0] ^= 1;
        int[] leaked = c.keyCopy();
        leaked[1] ^= 1;
        int[] after = new int[16];
        c.block(7, after);
        assertArrayEquals(before, after);
        assertArrayEquals(RFC_KEY, c.keyCopy());
    }

    @Test
    void toStringDoesNotRevealKey() {
        ChaCha20 c = ChaCha20.fromSecureRandom(new SecureRandom());
        String s = c.toString();
        for (int w : c.keyCopy()) {
            assertFalse(s.contains(Integer.toHexString(w)), s);
            assertFalse(s.contains(Integer.toString(w)), s);
            assertFalse(s.contains(Integer.toUnsignedString(w)), s);
        }
        assertTrue(s.startsWith("ChaCha20["), s);
    }

    @Test
    void secureRandomKeysDifferAndStreamsAreIndependent() {
        SecureRandom rng = new SecureRandom();
        ChaCha20 a = ChaCha20.fromSecureRandom(rng);
        ChaCha20 b = ChaCha20.fromSecureRandom(rng);
        assertNotEquals(a.word(0), b.word(0)); // equal with probability 2^-64
        ChaCha20 a1 = a.withStream(1);
        assertEquals(1L, a1.stream());
        assertArrayEquals(a.keyCopy(), a1.keyCopy());
        assertNotEquals(a.word(0), a1.word(0));
    }

    @Test
    void validatesArguments() {
        assertThrows(IllegalArgumentException.class, () -> ChaCha20.withKey(null, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ChaCha20.withKey(new int[7], 0));
        assertTrue(e.getMessage().contains("int[8]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ChaCha20.fromSecureRandom(null));
        ChaCha20 c = ChaCha20.withKey(ZERO_KEY, 0);
        assertThrows(IllegalArgumentException.class, () -> c.block(0, new int[15]));
        assertThrows(IllegalArgumentException.class, () -> c.block(0, null));
    }

    private static void assertKeystream(int[] key, long stream, long counter, String hex) {
        int[] out = new int[16];
        ChaCha20.withKey(key, stream).block(counter, out);
        assertArrayEquals(bytes(hex), serialize(out));
    }

    static byte[] bytes(String hex) {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    static int[] wordsLe(byte[] b) {
        int[] w = new int[b.length / 4];
        for (int i = 0; i < w.length; i++) {
            w[i] = (b[4 * i] & 0xff) | (b[4 * i + 1] & 0xff) << 8 | (b[4 * i + 2] & 0xff) << 16
                    | (b[4 * i + 3] & 0xff) << 24;
        }
        return w;
    }

    static byte[] serialize(int[] words) {
        byte[] b = new byte[4 * words.length];
        for (int i = 0; i < words.length; i++) {
            for (int j = 0; j < 4; j++) {
                b[4 * i + j] = (byte) (words[i] >>> (8 * j));
            }
        }
        return b;
    }
}
