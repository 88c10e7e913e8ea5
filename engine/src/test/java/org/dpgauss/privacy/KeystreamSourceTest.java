package org.dpgauss.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.random.ChaCha20;
import org.junit.jupiter.api.Test;

/** The ChaCha20 keystream that feeds the bulk Gaussian draws. */
class KeystreamSourceTest {

    @Test
    void isTheChaCha20StreamUnderAKeyFromTheParent() {
        RandomSource parent = RandomSource.insecureSeeded(42);
        int[] key = new int[8];
        for (int i = 0; i < 8; i += 2) {
            long v = parent.nextLong();
            key[i] = (int) v;
            key[i + 1] = (int) (v >>> 32);
        }
        int[] block = new int[ChaCha20.WORDS];
        ChaCha20 cipher = ChaCha20.withKey(key, 0);
        KeystreamSource s = KeystreamSource.keyedFrom(RandomSource.insecureSeeded(42));
        for (long counter = 0; counter < 3; counter++) {
            cipher.block(counter, block);
            for (int w = 0; w < ChaCha20.WORDS; w += 2) {
                long expected = ((block[w] & 0xFFFF_FFFFL) << 32) | (block[w + 1] & 0xFFFF_FFFFL);
                assertEquals(expected, s.nextLong());
            }
        }
    }

    @Test
    void securityIsThatOfTheParentAndKeysDiffer() {
        assertTrue(KeystreamSource.keyedFrom(RandomSource.insecureSeeded(1)).isInsecure());
        assertTrue(KeystreamSource.keyedFrom(RandomSource.insecureSeeded(1)).describe().contains("INSECURE"));
        assertFalse(KeystreamSource.keyedFrom(RandomSource.secure()).isInsecure());
        assertNotEquals(KeystreamSource.keyedFrom(RandomSource.secure()).nextLong(),
                KeystreamSource.keyedFrom(RandomSource.secure()).nextLong());
        // uniform doubles: the mean of 1e5 draws is within 6 standard errors of 1/2 (failure probability 2e-9)
        KeystreamSource s = KeystreamSource.keyedFrom(RandomSource.insecureSeeded(3));
        double sum = 0;
        for (int i = 0; i < 100_000; i++) {
            sum += s.nextDouble();
        }
        assertEquals(0.5, sum / 100_000, 6 * Math.sqrt(1 / 12.0 / 100_000));
        byte[] bytes = new byte[13];
        s.nextBytes(bytes);
    }
}
