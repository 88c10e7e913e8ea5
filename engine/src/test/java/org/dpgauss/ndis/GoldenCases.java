package org.dpgauss.ndis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reader for the golden-value resource files of this package (format described in their headers). */
final class GoldenCases {

    record Case(String name, Gaussian x, Gaussian y, double epsilon, double expected, double precision,
            String source) {

        /** max(precision, min(1e-9, 1e-6 |expected|)): the project target unless the reference is coarser. */
        double tolerance() {
            return Math.max(precision, Math.min(1e-9, 1e-6 * Math.abs(expected)));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private GoldenCases() {
    }

    static List<Case> load(String resource) {
        List<Case> out = new ArrayList<>();
        try (InputStream in = GoldenCases.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = r.readLine()) != null) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\|");
                if (f.length != 9) {
                    throw new IllegalStateException("bad line in " + resource + ": " + line);
                }
                Gaussian x = Gaussian.of(vector(f[1]), matrix(f[2]));
                Gaussian y = Gaussian.of(vector(f[3]), matrix(f[4]));
                out.add(new Case(f[0].strip(), x, y, Double.parseDouble(f[5].strip()),
                        Double.parseDouble(f[6].strip()), Double.parseDouble(f[7].strip()), f[8].strip()));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    static double[] vector(String s) {
        s = s.strip();
        if (s.contains("@")) {
            String[] p = s.split("@");
            double v = Double.parseDouble(p[0]);
            double[] out = new double[Integer.parseInt(p[1])];
            java.util.Arrays.fill(out, v);
            return out;
        }
        String[] p = s.split(",");
        double[] out = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            out[i] = Double.parseDouble(p[i].strip());
        }
        return out;
    }

    static double[][] matrix(String s) {
        s = s.strip();
        if (s.startsWith("diag:")) {
            String[] p = s.substring(5).split("@");
            double v = Double.parseDouble(p[0]);
            int n = Integer.parseInt(p[1]);
            double[][] out = new double[n][n];
            for (int i = 0; i < n; i++) {
                out[i][i] = v;
            }
            return out;
        }
        String[] rows = s.split(";");
        double[][] out = new double[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            out[i] = vector(rows[i]);
        }
        return out;
    }
}
