package org.dpgauss.mean.anisotropic;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * A test engine: the CPU engine, except that neighbour counts use the exact all-pass shortcut when it applies
 * (every row within radius/2 of the column mean, with a relative margin of 1e-9, so every pair passes and every
 * count is n: exactly what the engine returns; the bench's CachingCountsEngine uses the same rule). O(n d) instead
 * of O(n^2 d), for statistical tests with many large runs.
 */
public final class ShortcutCountsEngine {

    private ShortcutCountsEngine() {
    }

    public static ComputeEngine create() {
        ComputeEngine cpu = CpuEngine.instance();
        return (ComputeEngine) Proxy.newProxyInstance(ComputeEngine.class.getClassLoader(),
                new Class<?>[] {ComputeEngine.class}, (proxy, method, args) -> {
                    if (method.getName().equals("neighbourCounts") && args.length == 2
                            && allWithinHalfRadius((RowBlockMatrix) args[0], (Double) args[1])) {
                        int[] all = new int[((RowBlockMatrix) args[0]).rows()];
                        Arrays.fill(all, all.length);
                        return all;
                    }
                    try {
                        return method.invoke(cpu, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    static boolean allWithinHalfRadius(RowBlockMatrix x, double radius) {
        double[] c = x.columnMeans();
        double limit = 0.5 * radius * (1 - 1e-9);
        double limit2 = limit * limit;
        int d = x.cols();
        double[] row = new double[d];
        for (int r = 0; r < x.rows(); r++) {
            x.copyRow(r, row, 0);
            double s = 0;
            for (int j = 0; j < d; j++) {
                double t = row[j] - c[j];
                s += t * t;
            }
            if (!(s * (1 + 1e-12) <= limit2)) {
                return false;
            }
        }
        return true;
    }
}
