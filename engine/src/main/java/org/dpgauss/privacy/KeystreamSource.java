package org.dpgauss.privacy;

import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.random.ChaCha20;

/**
 * A ChaCha20 keystream (RFC 8439 block function) keyed with 256 bits drawn from a parent {@link RandomSource}: the
 * bulk randomness of the sphere direction {@code z} and the mean estimator's {@code g}, which need up to
 * {@code n2 ~ 10^7..10^8} Gaussian draws. {@code SecureRandom} itself costs about 4.5 microseconds per exact
 * discrete-Gaussian draw here (it is read a long at a time through a synchronised provider); a ChaCha20 keystream
 * keyed from it is a standard CSPRNG construction (design.md: ChaCha20 wherever a proof needs the randomness kept
 * secret) and is about 4-5 times faster here (750k draws: 0.8-1.2 s against 3.2-4.4 s). The key is never
 * exposed. Also the stream behind the secret row order ({@code rows.SecretPermutation}). Secure exactly when the parent is; {@link #isInsecure()} and {@link #describe()} say so. Not
 * thread-safe.
 */
final class KeystreamSource implements RandomSource {

    private final ChaCha20 cipher;
    private final RandomSource parent;
    private final int[] block = new int[ChaCha20.WORDS];
    private long counter;
    private int position = ChaCha20.WORDS;

    private KeystreamSource(ChaCha20 cipher, RandomSource parent) {
        this.cipher = cipher;
        this.parent = parent;
    }

    /**
     * @param parent the source of the key (SecureRandom in production), not null
     * @return a keystream under a fresh key
     */
    static KeystreamSource keyedFrom(RandomSource parent) {
        Objects.requireNonNull(parent, "parent");
        int[] key = new int[8];
        for (int i = 0; i < 8; i += 2) {
            long v = parent.nextLong();
            key[i] = (int) v;
            key[i + 1] = (int) (v >>> 32);
        }
        KeystreamSource s = new KeystreamSource(ChaCha20.withKey(key, 0), parent);
        Arrays.fill(key, 0);
        return s;
    }

    @Override
    public long nextLong() {
        if (position > ChaCha20.WORDS - 2) {
            cipher.block(counter++, block);
            position = 0;
        }
        long hi = block[position++] & 0xFFFF_FFFFL;
        long lo = block[position++] & 0xFFFF_FFFFL;
        return (hi << 32) | lo;
    }

    @Override
    public boolean isInsecure() {
        return parent.isInsecure();
    }

    @Override
    public String describe() {
        return "ChaCha20 keystream keyed from " + parent.describe();
    }
}
