package org.dpgauss.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a result was measured on, as written into every result JSON under bench/results. */
public final class MachineInfo {

    private MachineInfo() {
    }

    /** Host name, OS, processor count, CPU model (from /proc/cpuinfo on Linux) and Java runtime. */
    public static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown";
        }
        m.put("hostname", host);
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        m.put("cpuModel", cpuModel());
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        return m;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: leave unknown
        }
        return "unknown";
    }
}
