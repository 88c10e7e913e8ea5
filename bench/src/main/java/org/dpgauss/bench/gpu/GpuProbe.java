package org.dpgauss.bench.gpu;

import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineSelection;

/** Prints which engine {@code auto} picks and why; exit status 0 with a usable GPU, 3 without. */
public final class GpuProbe {

    private GpuProbe() {
    }

    public static void main(String[] args) {
        EngineSelection s = ComputeEngines.select(EngineChoice.AUTO);
        System.out.println("engine: " + s.engine().name());
        System.out.println(s.reason());
        System.exit("gpu".equals(s.engine().name()) ? 0 : 3);
    }
}
