package org.dpgauss.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.dpgauss.io.DataFormatException;
import org.dpgauss.ndis.Gaussian;

/**
 * A pair of Gaussians from a JSON file {@code {"mean1":[..],"cov1":[[..]],"mean2":[..],"cov2":[[..]]}}
 * (design.md "Command line"; matrices are arrays of rows). Errors name the file and the key.
 */
record PairFile(Gaussian first, Gaussian second) {

    static PairFile read(Path path) throws IOException {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(Files.readAllBytes(path));
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(path + ": no such file");
        } catch (JsonProcessingException e) {
            throw DataFormatException.of(path, "not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw DataFormatException.of(path, "expected a JSON object with mean1, cov1, mean2, cov2");
        }
        double[] mean1 = vector(path, root, "mean1");
        double[][] cov1 = matrix(path, root, "cov1");
        double[] mean2 = vector(path, root, "mean2");
        double[][] cov2 = matrix(path, root, "cov2");
        int d = mean1.length;
        check(path, "cov1", cov1, d);
        if (mean2.length != d) {
            throw DataFormatException.of(path, "mean2 has " + mean2.length + " entries but mean1 has " + d);
        }
        check(path, "cov2", cov2, d);
        try {
            return new PairFile(Gaussian.of(mean1, cov1), Gaussian.of(mean2, cov2));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static void check(Path path, String key, double[][] cov, int d) throws DataFormatException {
        if (cov.length != d) {
            throw DataFormatException.of(path, key + " has " + cov.length + " rows but the means have " + d
                    + " entries");
        }
        for (int i = 0; i < d; i++) {
            if (cov[i].length != d) {
                throw DataFormatException.of(path, key + " row " + (i + 1) + " has " + cov[i].length
                        + " entries, expected " + d);
            }
        }
    }

    private static double[] vector(Path path, JsonNode root, String key) throws DataFormatException {
        JsonNode n = root.get(key);
        if (n == null) {
            throw DataFormatException.of(path, "missing key \"" + key + "\"");
        }
        if (!n.isArray() || n.isEmpty()) {
            throw DataFormatException.of(path, "\"" + key + "\" must be a non-empty array of numbers");
        }
        double[] v = new double[n.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = number(path, n.get(i), key + "[" + i + "]");
        }
        return v;
    }

    private static double[][] matrix(Path path, JsonNode root, String key) throws DataFormatException {
        JsonNode n = root.get(key);
        if (n == null) {
            throw DataFormatException.of(path, "missing key \"" + key + "\"");
        }
        if (!n.isArray() || n.isEmpty()) {
            throw DataFormatException.of(path, "\"" + key + "\" must be a non-empty array of rows");
        }
        double[][] m = new double[n.size()][];
        for (int i = 0; i < m.length; i++) {
            JsonNode row = n.get(i);
            if (!row.isArray()) {
                throw DataFormatException.of(path, key + "[" + i + "] must be an array of numbers");
            }
            m[i] = new double[row.size()];
            for (int j = 0; j < m[i].length; j++) {
                m[i][j] = number(path, row.get(j), key + "[" + i + "][" + j + "]");
            }
        }
        return m;
    }

    private static double number(Path path, JsonNode n, String where) throws DataFormatException {
        if (n == null || !n.isNumber()) {
            throw DataFormatException.of(path, where + " is " + (n == null ? "missing" : n.toString())
                    + ", expected a finite number");
        }
        double v = n.asDouble();
        if (!Double.isFinite(v)) {
            throw DataFormatException.of(path, where + " = " + v + " is not finite");
        }
        return v;
    }
}
