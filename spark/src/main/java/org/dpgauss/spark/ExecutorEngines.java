package org.dpgauss.spark;

import java.io.Serializable;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.function.Supplier;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.CpuEngine;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.engine.EngineUnavailableException;

/**
 * The compute engine of an executor task, chosen by name so that executors run the same primitive as the driver
 * (the same bits): {@code cpu-ejml}, {@code cpu-openblas} or {@code gpu} (on the GPU the scheduler assigned the
 * task), or {@code auto} (the assigned GPU where it can run, else the CPU). One instance per JVM and name or device.
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
        return route(name).engine();
    }

    /**
     * The engine for the running task, and why: {@code gpu} runs on the GPU the cluster scheduler assigned the task
     * ({@code TaskContext.get().resources()}, with {@code spark.executor.resource.gpu.amount} and
     * {@code spark.task.resource.gpu.amount} set) or, where GPUs are not scheduled, on device 0; {@code auto} runs
     * on the assigned GPU when it can, else on the CPU engine ({@code cpu}: OpenBLAS where its natives load, else
     * EJML); the CPU engines by name ignore any assigned GPU.
     *
     * @param name an engine name ({@code cpu-ejml}, {@code cpu-openblas}, {@code gpu}) or {@code auto}
     * @throws IllegalStateException if this executor cannot run the engine asked for
     */
    static Routing route(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        if (!key.equals(ComputeEngines.GPU) && !key.equals("auto")) {
            return new Routing(ENGINES.computeIfAbsent(name, ExecutorEngines::open), -1);
        }
        String address = assignedGpu();
        int device = address == null ? -1 : ordinal(address);
        if (key.equals("auto")) {
            EngineSelection s = device < 0 ? ComputeEngines.select(EngineChoice.CPU)
                    : ComputeEngines.select(EngineChoice.AUTO, device);
            return new Routing(s.engine(), s.engine().name().equals(ComputeEngines.GPU) ? device : -1);
        }
        try {
            return new Routing(ComputeEngines.select(EngineChoice.GPU, Math.max(device, 0)).engine(),
                    Math.max(device, 0));
        } catch (EngineUnavailableException e) {
            throw new IllegalStateException("this executor cannot run the gpu engine the driver asked for on "
                    + (device < 0 ? "device 0 (no GPU is scheduled for its tasks)" : "GPU address " + address)
                    + ": " + e.getMessage() + " Give executors GPUs (spark.executor.resource.gpu.amount,"
                    + " spark.task.resource.gpu.amount, a discovery script) and the " + ComputeEngines.GPU_ARTIFACT
                    + " artifact, or ask for auto or a CPU engine (--executor-engine, or executorEngine(..) of the"
                    + " session builder)", e);
        }
    }

    /** The first GPU address the scheduler assigned the running task, or null (no task, or no GPU scheduled). */
    static String assignedGpu() {
        TaskContext task = TaskContext.get();
        if (task == null) {
            return null;
        }
        ResourceInformation gpu = task.resources().get("gpu").getOrElse(() -> null);
        return gpu == null || gpu.addresses().length == 0 ? null : gpu.addresses()[0];
    }

    /** A GPU address as a device ordinal; a discovery script that prints anything else is a set-up error. */
    private static int ordinal(String address) {
        try {
            int k = Integer.parseInt(address.trim());
            if (k >= 0) {
                return k;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalStateException("GPU address '" + address + "' is not a CUDA device ordinal (0, 1, ..):"
                + " the GPU discovery script must print ordinals, e.g. {\"name\":\"gpu\",\"addresses\":[\"0\",\"1\"]}");
    }

    /** The engine a task runs and the GPU device it runs on (-1: a CPU engine). */
    record Routing(ComputeEngine engine, int device) implements Serializable {
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
