package org.dpgauss.bench;

import java.util.Locale;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Shared set-up for the JMH benchmarks: the {@code shape} parameter ("NxD"), synthetic N(0, I) data
 * from Philox-4x32-10 (the same stream as {@code dpgauss bench}: key 20261120, stream 0x5EED, element
 * (i, j) is normal i*d + j) and the engine named by the {@code dpgauss.engine} system property.
 */
final class BenchData {

    /** The default key of {@code dpgauss bench} (its {@code --insecure-seed} default). */
    static final long KEY = 20261120L;

    private BenchData() {
    }

    /** Parses "NxD" (e.g. "100000x100") into {n, d}. */
    static int[] parseShape(String shape) {
        String[] parts = shape == null ? new String[0] : shape.trim().toLowerCase(Locale.ROOT).split("x");
        if (parts.length != 2) {
            throw new IllegalArgumentException("shape '" + shape + "' is not of the form NxD, e.g. 100000x100");
        }
        int n;
        int d;
        try {
            n = Integer.parseInt(parts[0].trim());
            d = Integer.parseInt(parts[1].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("shape '" + shape + "' is not of the form NxD, e.g. 100000x100", e);
        }
        if (n < 1 || d < 1) {
            throw new IllegalArgumentException("shape '" + shape + "': n and d must be >= 1");
        }
        return new int[] {n, d};
    }

    /** n x d standard-normal rows, deterministic in the key. */
    static RowBlockMatrix standardNormal(int n, int d, long key) {
        return org.dpgauss.io.SyntheticData.standardNormal(n, d, key);
    }

    /**
     * The engine from {@code -Ddpgauss.engine=auto|cpu|gpu} (auto when unset: the CPU fallback when no
     * GPU backend is usable). Prints the choice so it lands in the raw JMH log next to the numbers.
     */
    static ComputeEngine engine(String benchmark, String shape) {
        EngineSelection selection = ComputeEngines.fromSystemProperty();
        ComputeEngine engine = selection.engine();
        System.out.printf(Locale.ROOT, "%n# dpgauss %s shape=%s engine: %s (%s); cores=%d, max heap=%d MiB%n",
                benchmark, shape, engine.description(), selection.reason(),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        return engine;
    }
}
