package org.dpgauss.gx2;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** One golden value (column 6; column 7 the mpmath recomputation where the file has one) of a generalized chi-square probability, read from a ';'-separated test resource. */
record Gx2Cases(double[] weights, int[] dof, double[] nc, double sigma, double x, boolean upper, double value,
                double mpmath, String line) {

    GeneralizedChiSquare distribution() {
        return GeneralizedChiSquare.of(weights, dof, nc, sigma);
    }

    static List<Gx2Cases> read(String resource) {
        try (InputStream in = Gx2Cases.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<Gx2Cases> rows = new ArrayList<>();
            boolean header = true;
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (header) {
                    header = false;
                    continue;
                }
                String[] f = line.split(";");
                rows.add(new Gx2Cases(doubles(f[0]), Arrays.stream(f[1].trim().split("\\s+")).mapToInt(Integer::parseInt).toArray(),
                    doubles(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4]), f[5].trim().equals("sf"),
                    Double.parseDouble(f[6]), f.length == 9 ? Double.parseDouble(f[7]) : Double.parseDouble(f[6]), line));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double[] doubles(String s) {
        return Arrays.stream(s.trim().split("\\s+")).mapToDouble(Double::parseDouble).toArray();
    }
}
