package org.dpgauss.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dpgauss.plan.PlannedMethod;
import org.dpgauss.plan.Planner;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Accuracy;

/**
 * The data of the charts behind {@code --plot FILE} (issue 26 item 4), built from the same numbers the commands
 * print: the planner's own a-priori statements ({@code plan}), the exact privacy profile and the engine's one zCDP
 * conversion ({@code ndis profile}, {@code calibrate gaussian}), the released variances ({@code pca}). Pure data, no
 * drawing: {@link PlotWriter} (the only class that touches JFreeChart and AWT) renders it, so that a command without
 * {@code --plot} never loads either, and the tests assert the series themselves.
 */
final class PlotData {

    /** Points per grid of the plan's curves (two decades each way would cost too many plans; one decade each way). */
    static final int PLAN_GRID = 17;

    /** The smallest delta the conversion curve is followed to (far below anything a log axis shows usefully). */
    static final double CONVERSION_DELTA_FLOOR = 1e-300;

    private PlotData() {
    }

    /**
     * One curve: its legend, its points (x ascending), whether it is a reference drawn dashed, and whether its numbers
     * are the user's own non-private ones ({@code pca --plot-reference}): those are drawn but never written into the
     * image's data chunk ({@link #describe}).
     */
    record Series(String name, double[] x, double[] y, boolean dashed, boolean nonPrivate) {
        Series {
            if (x.length != y.length) {
                throw new IllegalArgumentException("series " + name + ": " + x.length + " x values, " + y.length
                        + " y values");
            }
            x = x.clone();
            y = y.clone();
        }

        /** A series of public or released numbers. */
        Series(String name, double[] x, double[] y, boolean dashed) {
            this(name, x, y, dashed, false);
        }

        @Override
        public double[] x() {
            return x.clone();
        }

        @Override
        public double[] y() {
            return y.clone();
        }
    }

    /** One panel: titles, axis labels and scales, its series, and vertical markers at public x values. */
    record Chart(String title, String subtitle, String xLabel, String yLabel, boolean logX, boolean logY,
            List<Series> series, Map<String, Double> markers) {
        Chart {
            series = List.copyOf(series);
            markers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(markers));
        }

        /** @return the series named {@code name} */
        Optional<Series> series(String name) {
            return series.stream().filter(s -> s.name().equals(name)).findFirst();
        }
    }

    /** The planner at other public facts: the same query as the user's with n and epsilon replaced. */
    @FunctionalInterface
    interface PlanAt {
        Planner.Plan plan(int n, double epsilon);
    }

    // ---------------------------------------------------------------- plan

    /**
     * The metric whose curves are drawn: the recommended method's, else the one most applicable methods state (the
     * planner compares only predictions in one metric, and so does the chart: two metrics on one axis would mislead).
     */
    static Optional<String> planMetric(Planner.Plan plan) {
        Optional<String> rec = plan.recommended().flatMap(PlannedMethod::predicted).map(Accuracy::metric);
        if (rec.isPresent()) {
            return rec;
        }
        Map<String, Integer> count = new LinkedHashMap<>();
        for (PlannedMethod m : plan.methods()) {
            if (m.applicable() && m.predicted().isPresent()) {
                count.merge(m.predicted().get().metric(), 1, Integer::sum);
            }
        }
        return count.entrySet().stream().reduce((a, b) -> b.getValue() > a.getValue() ? b : a).map(Map.Entry::getKey);
    }

    /** The methods drawn: applicable at the user's facts, with a prediction in {@code metric}, in the plan's order. */
    static List<String> planMethods(Planner.Plan plan, String metric) {
        List<String> out = new ArrayList<>();
        for (PlannedMethod m : plan.methods()) {
            if (m.applicable() && m.predicted().isPresent() && m.predicted().get().metric().equals(metric)) {
                out.add(m.method());
            }
        }
        return out;
    }

    /** {@code count} points from {@code centre / 10} to {@code centre * 10}, evenly in log, the centre exactly in it. */
    static double[] logGrid(double centre, int count) {
        double[] g = new double[count];
        int mid = count / 2;
        for (int i = 0; i < count; i++) {
            g[i] = i == mid ? centre : centre * Math.pow(10, (i - mid) / (double) mid);
        }
        return g;
    }

    /** The n of the plan's n-chart: {@link #logGrid} around n, rounded, at least 2, distinct, within int. */
    static int[] rowGrid(int n) {
        double[] g = logGrid(n, PLAN_GRID);
        List<Integer> out = new ArrayList<>();
        for (double v : g) {
            int r = (int) Math.max(2, Math.min(Integer.MAX_VALUE, Math.round(v)));
            if (out.isEmpty() || r > out.get(out.size() - 1)) {
                out.add(r);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The two panels of {@code plan --plot}: each drawn method's predicted expected error against epsilon (at the
     * user's n) and against n (at the user's epsilon), each point the planner's own statement on those facts (the
     * number {@code plan} prints there). A method that does not run at a grid point, or states another metric there,
     * has no point there.
     *
     * @param planAt the planner on the user's facts with n and epsilon replaced
     * @param atUser the plan at the user's facts (the one printed)
     * @return the two charts, or empty when no applicable method predicts an error
     */
    static List<Chart> plan(PlanAt planAt, Planner.Plan atUser) {
        Optional<String> metric = planMetric(atUser);
        if (metric.isEmpty()) {
            return List.of();
        }
        List<String> methods = planMethods(atUser, metric.get());
        int n = atUser.query().rows();
        double eps = atUser.query().budget().epsilon();
        double delta = atUser.query().budget().delta();
        String family = atUser.query().family().id();
        double[] epsGrid = logGrid(eps, PLAN_GRID);
        List<Planner.Plan> byEps = new ArrayList<>();
        for (double e : epsGrid) {
            byEps.add(e == eps ? atUser : planAt.plan(n, e));
        }
        int[] nGrid = rowGrid(n);
        double[] nAsDouble = new double[nGrid.length];
        List<Planner.Plan> byRows = new ArrayList<>();
        for (int i = 0; i < nGrid.length; i++) {
            nAsDouble[i] = nGrid[i];
            byRows.add(nGrid[i] == n ? atUser : planAt.plan(nGrid[i], eps));
        }
        String yLabel = "expected error (log scale)";
        String facts = String.format(Locale.ROOT, "the planner's a-priori statements (no data read); d=%d, delta=%s; "
                + "error: %s", atUser.query().dimension(), ReleasePrinter.fmt(delta), metric.get());
        Chart vsEps = new Chart("plan " + family + ": expected error against epsilon at n=" + n, facts, "epsilon",
                yLabel, true, true, curves(methods, metric.get(), epsGrid, byEps), Map.of("your epsilon", eps));
        Chart vsRows = new Chart("plan " + family + ": expected error against n at epsilon=" + ReleasePrinter.fmt(eps),
                facts, "n (rows)", yLabel, true, true, curves(methods, metric.get(), nAsDouble, byRows),
                Map.of("your n", (double) n));
        return List.of(vsEps, vsRows);
    }

    private static List<Series> curves(List<String> methods, String metric, double[] xs, List<Planner.Plan> plans) {
        List<Series> out = new ArrayList<>();
        for (String method : methods) {
            List<double[]> pts = new ArrayList<>();
            for (int i = 0; i < xs.length; i++) {
                for (PlannedMethod m : plans.get(i).methods()) {
                    if (m.method().equals(method) && m.applicable() && m.predicted().isPresent()
                            && m.predicted().get().metric().equals(metric)) {
                        double e = m.predicted().get().expected();
                        if (Double.isFinite(e) && e > 0) {
                            pts.add(new double[] {xs[i], e});
                        }
                    }
                }
            }
            out.add(fromPoints(method, pts, false));
        }
        return out;
    }

    // ---------------------------------------------------------------- privacy profiles

    /**
     * The delta at {@code epsilon} of the engine's zCDP conversion ({@link ConversionPolicy}, CKS20 Cor. 13) of a
     * {@code rho}-zCDP guarantee: the smallest delta whose converted epsilon is at most {@code epsilon}, by bisection
     * on {@code log delta} of {@link ConversionPolicy#toApproxDp} itself (its epsilon falls as delta grows), so the
     * curve is the conversion every guarantee of dpgauss uses, not a second implementation of it. 0 when even
     * delta = {@link #CONVERSION_DELTA_FLOOR} converts to at most epsilon.
     */
    static double conversionDelta(double rho, double epsilon) {
        Zcdp z = Zcdp.of(rho);
        double hi = Math.log1p(-1e-12); // delta just below 1 (the conversion takes delta in (0, 1))
        if (ConversionPolicy.toApproxDp(z, Math.exp(hi)).epsilon() > epsilon) {
            return 1; // no delta below 1 reaches epsilon: the conversion says nothing there
        }
        double lo = Math.log(CONVERSION_DELTA_FLOOR);
        if (ConversionPolicy.toApproxDp(z, Math.exp(lo)).epsilon() <= epsilon) {
            return 0;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, Math.abs(lo)); i++) {
            double mid = 0.5 * (lo + hi);
            if (ConversionPolicy.toApproxDp(z, Math.exp(mid)).epsilon() <= epsilon) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return Math.exp(hi);
    }

    /**
     * The delta of {@link #conversionDelta} at every epsilon.
     *
     * @param rho the zCDP parameter
     * @param epsilons the epsilons
     * @return the conversion's delta at each
     */
    static double[] conversionDeltas(double rho, double[] epsilons) {
        double[] d = new double[epsilons.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = conversionDelta(rho, epsilons[i]);
        }
        return d;
    }

    /** The legend of the exact profile. */
    static final String EXACT = "exact privacy profile delta(epsilon)";

    /** The legend of the conversion's curve. */
    static String conversionName(double rho) {
        return "zCDP rho=" + ReleasePrinter.fmt(rho) + " converted (CKS20 Cor. 13, the engine's conversion)";
    }

    /**
     * The profile chart: the exact delta(epsilon) beside the zCDP conversion's delta(epsilon), log-scale delta.
     * Points where a delta is 0 or above 1 (nothing to draw on a log axis) are left out.
     *
     * @param title the title
     * @param subtitle what the curves are of (public words)
     * @param epsilons the epsilon grid, ascending
     * @param exact the exact profile at each epsilon
     * @param rho the pair's zCDP parameter, or NaN when none bounds it (then only the exact curve is drawn)
     * @param markers public epsilons to mark (e.g. the target)
     * @return the chart
     */
    static Chart profile(String title, String subtitle, double[] epsilons, double[] exact, double rho,
            Map<String, Double> markers) {
        List<Series> s = new ArrayList<>();
        s.add(positive(EXACT, epsilons, exact, false));
        if (!Double.isNaN(rho)) {
            s.add(positive(conversionName(rho), epsilons, conversionDeltas(rho, epsilons), true));
        }
        return new Chart(title, subtitle, "epsilon", "delta (log scale)", false, true, s, markers);
    }

    /** An epsilon grid from 0 to {@code max}, {@code count} points. */
    static double[] linearGrid(double max, int count) {
        double[] g = new double[count];
        for (int i = 0; i < count; i++) {
            g[i] = max * i / (count - 1);
        }
        return g;
    }

    // ---------------------------------------------------------------- pca

    /** The legend of the released variances. */
    static final String PRIVATE_VARIANCES = "private variances (released)";

    /** The legend of the user's reference. */
    static final String REFERENCE_VARIANCES = "NON-PRIVATE reference (--plot-reference, supplied by you; not computed"
            + " by dpgauss)";

    /**
     * The scree chart of {@code pca --plot}: the released variances against the component index 1..k, and, when the
     * user supplies it, their own non-private variances (dashed; dpgauss computes nothing non-private).
     *
     * @param released the released variances, largest first
     * @param reference the user's reference variances, or null
     * @return the chart
     */
    static Chart scree(double[] released, double[] reference) {
        List<Series> s = new ArrayList<>();
        s.add(new Series(PRIVATE_VARIANCES, indices(released.length), released, false));
        if (reference != null) {
            s.add(new Series(REFERENCE_VARIANCES, indices(reference.length), reference, true, true));
        }
        return new Chart("pca: explained variance by component (scree)", reference == null
                ? "the released (private) variances only" : "private release beside a NON-PRIVATE reference you supplied",
                "component", "variance", false, false, s, Map.of());
    }

    private static double[] indices(int k) {
        double[] x = new double[k];
        for (int i = 0; i < k; i++) {
            x[i] = i + 1;
        }
        return x;
    }

    /**
     * Reads the non-private reference variances of {@code pca --plot-reference}: finite numbers separated by commas,
     * spaces or line breaks (e.g. one per line). The messages name entries by position, never by value.
     *
     * @param file the file
     * @return the values
     * @throws IOException if it cannot be read
     */
    static double[] readReference(Path file) throws IOException {
        String text = Files.readString(file);
        List<Double> v = new ArrayList<>();
        for (String t : text.strip().split("[\\s,;]+")) {
            if (t.isEmpty()) {
                continue;
            }
            double x;
            try {
                x = Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--plot-reference " + file + ": entry " + (v.size() + 1)
                        + " is not a number", e);
            }
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException("--plot-reference " + file + ": entry " + (v.size() + 1)
                        + " is not finite");
            }
            v.add(x);
        }
        if (v.isEmpty()) {
            throw new IllegalArgumentException("--plot-reference " + file + " holds no numbers");
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    // ---------------------------------------------------------------- shared

    /** The keyword of the PNG text chunk (iTXt) that holds the numbers an image draws ({@link #describe}). */
    static final String PNG_KEYWORD = "dpgauss-plot";

    /**
     * The numbers the charts draw, for the image's {@value #PNG_KEYWORD} text chunk (JSON), so that a reader of the
     * PNG (a script, a test) gets the series exactly, not by reading pixels: per panel its title, axis labels and
     * scales, markers, and each series' name, x and y. Only public or released numbers: a series of the user's own
     * non-private numbers ({@link Series#nonPrivate}) is named with {@code "nonPrivate": true} and no values, as
     * a picture shared on is not meant to carry the user's exact non-private numbers.
     *
     * @param charts the panels, left to right
     * @return {@code {"panels": [..]}}
     */
    static Map<String, Object> describe(List<Chart> charts) {
        List<Object> panels = new ArrayList<>();
        for (Chart c : charts) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("title", c.title());
            p.put("subtitle", c.subtitle());
            p.put("xLabel", c.xLabel());
            p.put("yLabel", c.yLabel());
            p.put("logX", c.logX());
            p.put("logY", c.logY());
            p.put("markers", c.markers());
            List<Object> series = new ArrayList<>();
            for (Series s : c.series()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", s.name());
                m.put("dashed", s.dashed());
                if (s.nonPrivate()) {
                    m.put("nonPrivate", true);
                } else {
                    m.put("x", s.x());
                    m.put("y", s.y());
                }
                series.add(m);
            }
            p.put("series", series);
            panels.add(p);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("panels", panels);
        return out;
    }

    /**
     * Checks, before any work, that {@code file} can be written and that this runtime can draw (JFreeChart and the
     * java.desktop module are present: a jlink runtime without java.desktop, as the GPU bundle's, cannot).
     *
     * @param file the PNG to write
     */
    static void preflight(Path file) {
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--plot " + file + ": the directory " + dir + " does not exist");
        }
        if (Files.isDirectory(abs)) {
            throw new IllegalArgumentException("--plot " + file + " is a directory");
        }
        if (!Files.isWritable(dir) || (Files.exists(abs) && !Files.isWritable(abs))) {
            throw new IllegalArgumentException("--plot " + file + " cannot be written");
        }
        try {
            ClassLoader l = PlotData.class.getClassLoader();
            Class.forName("java.awt.image.BufferedImage", false, l);
            Class.forName("org.jfree.chart.JFreeChart", false, l);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("--plot: this runtime cannot draw (" + e.getClass().getSimpleName()
                    + ": " + e.getMessage() + "); plots need a JDK with the java.desktop module and the command"
                    + " line's full jar", e);
        }
    }

    private static Series positive(String name, double[] x, double[] y, boolean dashed) {
        List<double[]> pts = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            if (y[i] > 0 && y[i] <= 1 && Double.isFinite(x[i])) {
                pts.add(new double[] {x[i], y[i]});
            }
        }
        return fromPoints(name, pts, dashed);
    }

    private static Series fromPoints(String name, List<double[]> pts, boolean dashed) {
        double[] x = new double[pts.size()];
        double[] y = new double[pts.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = pts.get(i)[0];
            y[i] = pts.get(i)[1];
        }
        return new Series(name, x, y, dashed);
    }
}
