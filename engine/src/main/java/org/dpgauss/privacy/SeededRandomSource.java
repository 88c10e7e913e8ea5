package org.dpgauss.privacy;

import java.util.SplittableRandom;

/**
 * {@link RandomSource#insecureSeeded(long)}: a deterministic generator for reproducible tests. Backed by
 * {@link SplittableRandom} (SplitMix64), whose algorithm has not changed since it appeared in JDK 8, so a seed gives
 * the same sequence on every platform; the JDK does not promise this contractually, so pin the JDK when bit-exact
 * reproduction matters. Not thread-safe. Provides no privacy.
 */
final class SeededRandomSource implements RandomSource {

    private final long seed;
    private final SplittableRandom random;

    SeededRandomSource(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }

    @Override
    public boolean isInsecure() {
        return true;
    }

    @Override
    public String describe() {
        return "INSECURE seeded generator (seed=" + seed + "): for reproducible tests only, not private";
    }

    @Override
    public String toString() {
        return describe();
    }
}
