package org.dpgauss.spark;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.function.Supplier;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.engine.EngineChoice;

/**
 * The compute engine of an executor JVM, chosen by name so that executors run the same primitive as the driver
 * (the same bits): {@code cpu-ejml}, {@code cpu-openblas} or {@code gpu}. One instance per JVM and name.
 */
final class ExecutorEngines {

    private static final ConcurrentHashMap<String, ComputeEngine> ENGINES = new ConcurrentHashMap<>();

    private ExecutorEngines() {
    }

    /**
     * @param name the engine's {@link ComputeEngine#name()}
     * @return the engine
     * @throws IllegalStateException if this machine cannot run it
     */
    static ComputeEngine get(String name) {
        return ENGINES.computeIfAbsent(name, ExecutorEngines::open);
    }

    private static ComputeEngine open(String name) {
        ComputeEngine e;
        switch (name.toLowerCase(Locale.ROOT)) {
            case "cpu-ejml":
                return CpuEngine.instance();
            case "cpu-openblas":
                e = ComputeEngines.select(EngineChoice.CPU).engine();
                break;
            case "gpu":
                e = ComputeEngines.select(EngineChoice.GPU).engine();
                break;
            default:
                throw new IllegalStateException("unknown compute engine '" + name + "'");
        }
        if (!e.name().equals(name)) {
            throw new IllegalStateException("this executor cannot run the " + name + " engine the driver uses (it"
                    + " would run " + e.name() + " and give different bits); install it on every executor or run"
                    + " the driver with -Ddpgauss.engine=ejml");
        }
        return e;
    }

    /**
     * Runs a task's work sequentially: inside a one-thread pool the engine's parallel streams do not fan out over
     * the executor's cores, which Spark already fills with tasks.
     */
    static <T> T sequential(Supplier<T> work) {
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            return pool.submit(ForkJoinTask.adapt(work::get)).join();
        } finally {
            pool.shutdown();
        }
    }
}
