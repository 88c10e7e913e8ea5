package org.dpgauss.bench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where each CUDA library was loaded from, read from a process's memory map (issue 28 item 5). */
class GpuProbeTest {

    @Test
    void eachLibraryIsNamedWithTheFileItWasMappedFrom(@TempDir Path tmp) throws Exception {
        Path maps = tmp.resolve("maps");
        Files.writeString(maps, String.join("\n",
                "7f0000000000-7f0000001000 r--p 00000000 00:10 11 /usr/local/nvidia/lib64/libcuda.so.580.159.04",
                "7f0000001000-7f0000002000 r-xp 00001000 00:10 11 /usr/local/nvidia/lib64/libcuda.so.580.159.04",
                "7f0000003000-7f0000004000 r--p 00000000 00:10 12 /v/nvidia/cu13/lib/libcublasLt.so.13",
                "7f0000005000-7f0000006000 r--p 00000000 00:10 13 /v/nvidia/cu13/lib/libcublas.so.13",
                "7f0000007000-7f0000008000 r--p 00000000 00:10 14 /tmp/j/libJCudaDriver-12.6.0-linux-x86_64.so",
                "7f0000009000-7f000000a000 rw-p 00000000 00:00 0 [heap]"));
        assertEquals(List.of(
                "library: libcuda.so <- /usr/local/nvidia/lib64/libcuda.so.580.159.04",
                "library: libcublas.so <- /v/nvidia/cu13/lib/libcublas.so.13",
                "library: libcublasLt.so <- /v/nvidia/cu13/lib/libcublasLt.so.13",
                "library: libcusolver.so not loaded",
                "library: libJCudaDriver <- /tmp/j/libJCudaDriver-12.6.0-linux-x86_64.so"), GpuProbe.loaded(maps));
    }
}
