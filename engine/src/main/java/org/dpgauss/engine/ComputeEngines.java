package org.dpgauss.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Factory that picks the backend (the EJML {@code Factory} pattern). The CPU engines are in this artifact; the
 * GPU engine is a {@link ComputeEngineProvider} named {@value #GPU} in the {@value #GPU_ARTIFACT} artifact, found at
 * run time by {@link ServiceLoader}, so this class does not link it.
 */
public final class ComputeEngines {

    /** The engine name of the GPU backend's provider. */
    public static final String GPU = "gpu";
    /** The artifact (groupId:artifactId) that carries the GPU backend. */
    public static final String GPU_ARTIFACT = "org.dpgauss:dpgauss-gpu";

    /** Providers by name, found once per process. */
    private static Map<String, ComputeEngineProvider> providers;

    private ComputeEngines() {
    }

    /** The engine named by the {@code dpgauss.engine} system property (default auto). */
    public static EngineSelection fromSystemProperty() {
        return select(EngineChoice.fromSystemProperty());
    }

    /**
     * Resolves a choice. {@code ejml} always succeeds (the pure-Java engine); {@code cpu} always succeeds: the
     * native OpenBLAS engine where its natives load, otherwise EJML with the reason; {@code gpu} throws
     * {@link EngineUnavailableException} with the reason when no GPU backend can run (including when the
     * {@value #GPU_ARTIFACT} artifact is not on the class path); {@code auto} uses the GPU when one is usable, else
     * the CPU as for {@code cpu}, and says why.
     */
    public static EngineSelection select(EngineChoice choice) {
        return select(choice, choice == EngineChoice.AUTO || choice == EngineChoice.GPU ? provider(GPU) : null);
    }

    /**
     * {@link #select(EngineChoice)} with the GPU, where one is used, on device {@code gpuDevice} (0-based ordinal: the
     * GPU address a cluster scheduler assigned the task). {@code gpu} throws when that device cannot run;
     * {@code auto} then falls back to the CPU and says why.
     */
    public static EngineSelection select(EngineChoice choice, int gpuDevice) {
        if (gpuDevice < 0) {
            throw new IllegalArgumentException("GPU device " + gpuDevice + ": device ordinals are 0 or more");
        }
        return select(choice, choice == EngineChoice.AUTO || choice == EngineChoice.GPU ? provider(GPU) : null,
                gpuDevice);
    }

    /** {@link #select(EngineChoice)} with the GPU provider given (null: the artifact is absent). */
    static EngineSelection select(EngineChoice choice, ComputeEngineProvider gpu) {
        return select(choice, gpu, 0);
    }

    private static EngineSelection select(EngineChoice choice, ComputeEngineProvider gpu, int device) {
        if (choice == EngineChoice.EJML) {
            return new EngineSelection(CpuEngine.instance(), choice, "ejml requested: " + CpuEngine.instance().description());
        }
        if (choice == EngineChoice.CPU) {
            return cpu(choice, "cpu requested");
        }
        String why = gpu == null ? missing() : gpu.unavailableReason(device);
        if (why == null) {
            ComputeEngine g = gpu.open(device);
            return new EngineSelection(g, choice, (choice == EngineChoice.AUTO ? "auto: " : "") + g.description());
        }
        if (choice == EngineChoice.GPU) {
            throw new EngineUnavailableException("--engine gpu: the GPU engine cannot run here: " + why
                    + ". Use --engine cpu, --engine ejml or --engine auto.");
        }
        return cpu(choice, "auto: no GPU, because " + why);
    }

    /** The reason given when no provider named {@value #GPU} is on the class path. */
    static String missing() {
        return "the GPU backend is not on the class path (add the " + GPU_ARTIFACT + " artifact, which carries JCuda)";
    }

    /** The CPU engine: OpenBLAS where its natives load, else EJML; the reason starts with {@code prefix}. */
    private static EngineSelection cpu(EngineChoice choice, String prefix) {
        String[] why = new String[1];
        OpenBlasEngine nativeCpu = OpenBlasEngine.open(why);
        if (nativeCpu != null) {
            return new EngineSelection(nativeCpu, choice, prefix + "; " + nativeCpu.description());
        }
        return new EngineSelection(CpuEngine.instance(), choice, prefix + "; " + CpuEngine.instance().description()
                + ", because " + why[0]);
    }

    /** Why the native OpenBLAS CPU engine cannot be used, or null when it can. */
    public static String openBlasUnavailableReason() {
        String[] why = new String[1];
        return OpenBlasEngine.open(why) == null ? why[0] : null;
    }

    /** Why the GPU backend cannot be used (its artifact absent, no device, no kernels), or null when it can. */
    public static String gpuUnavailableReason() {
        ComputeEngineProvider gpu = provider(GPU);
        return gpu == null ? missing() : gpu.unavailableReason();
    }

    /** The names of the backends found on the class path through {@link ComputeEngineProvider}. */
    public static List<String> providerNames() {
        return Collections.unmodifiableList(new ArrayList<>(providers().keySet()));
    }

    /** The provider with that name, or null. */
    static ComputeEngineProvider provider(String name) {
        return providers().get(name);
    }

    private static synchronized Map<String, ComputeEngineProvider> providers() {
        if (providers == null) {
            Map<String, ComputeEngineProvider> found = new LinkedHashMap<>();
            // this class's loader first (a plain or shaded class path), then the thread's (containers such as Spark
            // executors that load user jars in a child loader)
            discover(ComputeEngines.class.getClassLoader(), found);
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            if (context != null && context != ComputeEngines.class.getClassLoader()) {
                discover(context, found);
            }
            providers = found;
        }
        return providers;
    }

    /** Adds the providers visible to {@code loader}; the first with a name wins. */
    static void discover(ClassLoader loader, Map<String, ComputeEngineProvider> found) {
        try {
            for (ComputeEngineProvider p : ServiceLoader.load(ComputeEngineProvider.class, loader)) {
                found.putIfAbsent(p.name(), p);
            }
        } catch (ServiceConfigurationError e) {
            // a provider that cannot be instantiated (e.g. its own dependencies missing) is no backend; the
            // lookup reports the artifact as absent rather than failing a CPU run
            System.err.println("[dpgauss] a compute engine provider could not be loaded: " + e.getMessage());
        }
    }
}
