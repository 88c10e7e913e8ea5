package org.dpgauss.bench.secondmoment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Merges the rows of a {@link SecondMomentComparison} run of the {@code recursive[...]} variants ({@link
 * MethodVariant}) into a committed comparison JSON, and draws {@code second-moment-recursive-variants.png}
 * ({@link ComparisonChart#writeVariants}).
 *
 * <p>It refuses to merge unless both runs used the same n, runs, dimensions, rho values and datasets (radius,
 * lambda_min and P_tail equal to the last bit: the same simulated data), so the merged rows are comparable. A row of
 * the added run replaces the base row with the same (input, d, rho, method).
 *
 * <p>Usage: {@code MergeVariants --base BASE.json --add RUN.json [--png OUT.png]} (BASE.json is rewritten; default
 * PNG: {@code second-moment-recursive-variants.png} beside it).
 */
public final class MergeVariants {

    private MergeVariants() {
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws IOException {
        Map<String, String> opt = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value pairs, got '" + args[i] + "'");
            }
            opt.put(args[i].substring(2), args[i + 1]);
        }
        File baseFile = new File(Objects.requireNonNull(opt.get("base"), "--base BASE.json is required"));
        File addFile = new File(Objects.requireNonNull(opt.get("add"), "--add RUN.json is required"));
        File png = new File(opt.getOrDefault("png",
                new File(baseFile.getAbsoluteFile().getParentFile(), "second-moment-recursive-variants.png").getPath()));
        ObjectMapper om = new ObjectMapper();
        Map<String, Object> base = om.readValue(baseFile, LinkedHashMap.class);
        Map<String, Object> add = om.readValue(addFile, LinkedHashMap.class);
        for (String k : new String[] {"n", "runs", "dims", "rhos"}) {
            if (!Objects.equals(base.get(k), add.get(k))) {
                throw new IllegalArgumentException("cannot merge: '" + k + "' differs (" + base.get(k) + " vs "
                        + add.get(k) + ")");
            }
        }
        List<Map<String, Object>> baseDs = (List<Map<String, Object>>) base.get("datasets");
        for (Map<String, Object> ds : (List<Map<String, Object>>) add.get("datasets")) {
            Map<String, Object> match = baseDs.stream().filter(b -> b.get("input").equals(ds.get("input"))
                    && b.get("d").equals(ds.get("d"))).findFirst().orElseThrow(() -> new IllegalArgumentException(
                            "cannot merge: dataset " + ds.get("input") + " d=" + ds.get("d") + " is not in the base"));
            for (String k : new String[] {"radius", "lambdaMin", "lambdaMax", "tailFraction"}) {
                if (!Objects.equals(match.get(k), ds.get(k))) {
                    throw new IllegalArgumentException("cannot merge: dataset " + ds.get("input") + " d=" + ds.get("d")
                            + " has " + k + "=" + ds.get(k) + " against " + match.get(k) + ": not the same data");
                }
            }
        }
        List<Map<String, Object>> cells = new ArrayList<>((List<Map<String, Object>>) base.get("results"));
        List<Map<String, Object>> added = (List<Map<String, Object>>) add.get("results");
        for (Map<String, Object> c : added) {
            checkVariantRow(c);
            cells.removeIf(b -> key(b).equals(key(c)));
        }
        cells.addAll(added);
        Set<String> methods = new LinkedHashSet<>((List<String>) base.get("methods"));
        methods.addAll((List<String>) add.get("methods"));
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : base.entrySet()) {
            out.put(e.getKey(), e.getValue());
            if (e.getKey().equals("methods")) {
                out.put("methods", new ArrayList<>(methods));
                out.put("recursiveVariants", variantNote(base, add));
            }
        }
        out.put("results", cells);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(baseFile, out);

        int[] dims = ((List<Integer>) base.get("dims")).stream().mapToInt(Integer::intValue).toArray();
        double[] rhos = ((List<Number>) base.get("rhos")).stream().mapToDouble(Number::doubleValue).toArray();
        String[] inputs = baseDs.stream().map(ds -> (String) ds.get("input")).distinct().toArray(String[]::new);
        List<String> shown = new ArrayList<>();
        shown.add("recursive");
        for (String m : methods) {
            if (m.startsWith("recursive[")) {
                shown.add(m);
            }
        }
        shown.add("analyze-gauss");
        shown.add("coinpress");
        ComparisonChart.writeVariants(cells, dims, inputs, shown.toArray(new String[0]), rhos,
                ((Number) base.get("n")).intValue(), ((Number) base.get("runs")).intValue(), png);
        System.out.printf("merged %d rows (%s) into %s; wrote %s%n", added.size(), add.get("methods"), baseFile, png);
    }

    /**
     * A variant row must report the m and noise scaling it was asked for, and an exact accounting within the budget
     * (the stated rho-zCDP guarantee rests on it).
     */
    @SuppressWarnings("unchecked")
    static void checkVariantRow(Map<String, Object> c) {
        Map<String, Object> v = (Map<String, Object>) c.get("variant");
        Map<String, Object> p = (Map<String, Object>) c.get("publicParameters");
        if (v == null || p == null) {
            return; // not a variant, or every run failed (no parameters to check)
        }
        String where = c.get("method") + " at " + c.get("input") + " d=" + c.get("d") + " rho=" + c.get("rho");
        if (!Objects.equals(((Number) v.get("m")).intValue(), ((Number) p.get("m")).intValue())
                || !Objects.equals(v.get("noiseScaling"), p.get("noiseScaling"))) {
            throw new IllegalStateException(where + ": asked for m=" + v.get("m") + ", scaling "
                    + v.get("noiseScaling") + ", but the estimate reports m=" + p.get("m") + ", scaling "
                    + p.get("noiseScaling"));
        }
        double rho = ((Number) c.get("rho")).doubleValue();
        double accounted = ((Number) p.get("accountedRho")).doubleValue();
        if (!(accounted <= rho * (1 + 1e-12))) {
            throw new IllegalStateException(where + ": accountedRho=" + accounted + " exceeds rho=" + rho);
        }
    }

    private static String key(Map<String, Object> c) {
        return c.get("input") + "|" + c.get("d") + "|" + c.get("rho") + "|" + c.get("method");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> variantNote(Map<String, Object> base, Map<String, Object> add) {
        Map<String, Object> v = new LinkedHashMap<>();
        List<String> all = new ArrayList<>();
        for (Object m : (List<Object>) base.get("methods")) {
            if (m.toString().startsWith("recursive[")) {
                all.add(m.toString());
            }
        }
        for (Object m : (List<Object>) add.get("methods")) {
            if (!all.contains(m.toString())) {
                all.add(m.toString());
            }
        }
        v.put("methods", all);
        v.put("what", "recursive[...] rows: Algorithm 1/2 with non-default public parameters, m=d/K (m = d/K rounded"
                + " down: m=d/4 is 5 at d=20 and 25 at d=100, m=d/10 is 2 and 10) and/or noise scaling 'tight' (noise"
                + " calibrated to the tight sensitivity"
                + " sqrt(2) R_t^2/n instead of the paper's 4 R_t^2/n). Same data, same side information and the same"
                + " noise seeds as the default 'recursive' rows (seeded by the base method).");
        v.put("privacy", "every variant is rho-zCDP under replace-one neighbours, the same guarantee as the default:"
                + " m and the noise scaling are public, data-independent inputs of the level schedule, and"
                + " LevelSchedule verifies the exact accounting (tight sensitivity + floating-point + grid slack,"
                + " composed over the L levels) <= rho for every scaling; see each row's publicParameters.accountedRho"
                + " (about rho/8 for 'levels', about rho for 'tight')");
        v.put("accuracyBound", "m < d voids the paper's accuracy bound (Thm 3.3 needs m-subsamplable data; for"
                + " Gaussian-like data that needs m >= d): the m<d rows' prediction is NOT a bound (standing says"
                + " so). 'tight' alone keeps m = d and changes only the noise constant (gamma scaled accordingly)");
        v.put("muMinVsSigmaEff", "computed against the m=d Sigma_eff of the dataset entry, for every row");
        // one entry per merged run, earlier merges kept
        List<Object> runs = new ArrayList<>();
        Object earlier = base.get("recursiveVariants");
        if (earlier instanceof Map && ((Map<String, Object>) earlier).get("runs") instanceof List) {
            runs.addAll((List<Object>) ((Map<String, Object>) earlier).get("runs"));
        }
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("methods", add.get("methods"));
        run.put("command", add.get("command"));
        run.put("date", add.get("date"));
        run.put("seconds", add.get("seconds"));
        run.put("engine", add.get("engine"));
        run.put("machine", add.get("machine"));
        run.put("machineNote", add.get("machineNote"));
        runs.add(run);
        v.put("runs", runs);
        return v;
    }
}
