package org.dpgauss.privacy;

import java.security.SecureRandom;

/** {@link RandomSource#secure()}: a thin wrapper over {@code new SecureRandom()}; see that method for why. */
final class SecureRandomSource implements RandomSource {

    private final SecureRandom random;

    SecureRandomSource() {
        // Not SecureRandom.getInstanceStrong(): it may block on Linux (see RandomSource#secure()).
        this.random = new SecureRandom();
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }

    @Override
    public void nextBytes(byte[] bytes) {
        random.nextBytes(bytes);
    }

    @Override
    public boolean isInsecure() {
        return false;
    }

    @Override
    public String describe() {
        return "secure: java.security.SecureRandom (" + random.getAlgorithm() + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
