package org.dpgauss.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.plan.Family;
import org.dpgauss.plan.PlanQuery;
import org.dpgauss.plan.PlannedMethod;
import org.dpgauss.plan.Planner;
import org.dpgauss.privacy.ApproxDp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Plans a release from public facts only: reads no data, spends no budget. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Before reading any data: for the public facts you have (n, d, the budget, any public bounds), "
                + "every method's predicted error, its minimum n, what it needs from you, and which to choose.",
            "Predictions are the mechanisms' own a-priori accuracy statements (the same ones each release prints), "
                + "stated on these facts; nothing is read and no budget is spent."})
final class PlanCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "FAMILY", description = "What to release: mean, second-moment, project, sample or blr.")
    String family;

    @Option(names = "--n", required = true, paramLabel = "N",
            description = "The number of rows (public under replace-one; for project, a public upper bound; for blr, "
                    + "--max-rows).")
    int n;

    @Option(names = "--d", required = true, paramLabel = "D", description = "The number of columns.")
    int d;

    @Option(names = "--epsilon", required = true, paramLabel = "E", description = "The total epsilon of the release.")
    double epsilon;

    @Option(names = "--delta", defaultValue = "1e-6", paramLabel = "D",
            description = "The total delta (default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(names = "--clip", paramLabel = "C",
            description = "mean: a public L2 radius around the public centre that covers the rows, if you know one.")
    Double clip;

    @Option(names = "--centre", split = ",", paramLabel = "c1,c2,..",
            description = "mean: the public centre of the clipping ball, d values or one for every column (default: "
                    + "the origin).")
    double[] centre;

    @Option(names = "--bounds", paramLabel = "LO:HI|FILE",
            description = "mean: public per-column ranges covering the rows (as mean --bounds); with them the "
                    + "recommendation is the choice of mean --method auto.")
    String bounds;

    @Option(names = "--row-bound", paramLabel = "L",
            description = "second-moment, project: a public bound on every row's L2 norm, if you know one; blr: the "
                    + "bound on the feature vectors' norm (--row-bound of mechanism blr).")
    Double rowBound;

    @Option(names = "--min-eigenvalue", paramLabel = "L",
            description = "second-moment: a public lower bound on the smallest eigenvalue of the second moment, if you "
                    + "know one (the recursive method needs it; it also gives the relative form of the statements).")
    Double minEigenvalue;

    @Option(names = "--variances", split = ",", paramLabel = "v1,v2,..",
            description = "mean, sample: a public diagonal covariance proxy, if you have one.")
    double[] variances;

    @Option(names = "--rank", paramLabel = "R", description = "project: the projection rank r.")
    Integer rank;

    @Option(names = "--lambda", paramLabel = "L",
            description = "blr: the regulariser lambda (default: the planner recommends one from the other facts).")
    Double lambda;

    @Option(names = "--intercept", defaultValue = "0", paramLabel = "C",
            description = "blr: the intercept constant c of mechanism blr --intercept (default: ${DEFAULT-VALUE}, none).")
    double intercept;

    @Option(names = "--output", paramLabel = "point|sample",
            description = "blr: the release to plan, as mechanism blr --output: point (the default here: the point "
                    + "estimate by output perturbation, the classifier to use) or sample (the posterior sample, "
                    + "mechanism blr's own default). The prediction is that release's statement and the run line "
                    + "names it.")
    String output;

    @Option(names = "--plot", paramLabel = "FILE",
            description = "Also draw each applicable method's predicted expected error against epsilon (at this n) "
                    + "and against n (at this epsilon), one decade either way, as a PNG image to FILE: every point is "
                    + "the planner's own statement on those facts. The output gains the field \"plot\" (FILE). blr: "
                    + "give --lambda (the recommended one is searched anew at every point otherwise, seconds each).")
    Path plot;

    /** The parsed --bounds, {lower, upper}, or null. */
    private double[][] box;

    @Override
    public Integer call() throws java.io.IOException {
        if (output != null && Family.fromId(family) != Family.BLR) {
            throw new IllegalArgumentException("--output chooses blr's release (point or sample); plan "
                    + family + " has none");
        }
        if (output != null && !output.equals("point") && !output.equals("sample")) {
            throw new IllegalArgumentException("--output " + output + " is not one of point, sample");
        }
        if (plot != null) {
            PlotData.preflight(plot);
            if (Family.fromId(family) == Family.BLR && lambda == null) {
                throw new IllegalArgumentException("plan blr --plot needs --lambda: without it the planner searches "
                        + "lambda anew at every point of the plot (seconds each); run plan blr without --plot for "
                        + "the recommended lambda, then plot at it");
            }
        }
        box = bounds == null ? null : BoxBounds.parse(bounds).forDimension(d); // read once (a file, perhaps)
        Planner.Plan plan = Planner.plan(query(n, epsilon));
        PrintWriter out = main.spec.commandLine().getOut();
        RadiusAdvice.printWarnings(main, plan.warnings());
        if (plot != null) {
            List<PlotData.Chart> charts = PlotData.plan((rows, e) -> Planner.plan(query(rows, e)), plan);
            if (charts.isEmpty()) {
                throw new IllegalArgumentException("--plot: no method predicts an error on these facts (see each "
                        + "method's needs), so there is nothing to plot");
            }
            PlotWriter.write(plot, charts);
        }
        if (main.json) {
            Map<String, Object> m = plan.toMap();
            if (plot != null) {
                m.put("plot", plot.toString());
            }
            out.println(Json.write(m));
            return 0;
        }
        print(plan, out);
        if (plot != null) {
            out.println("plot: " + plot);
        }
        return 0;
    }

    /** The query of the user's public facts with n and epsilon as given (the plot varies them). */
    private PlanQuery query(int rows, double eps) {
        PlanQuery.Builder b = PlanQuery.builder(Family.fromId(family), rows, d, ApproxDp.of(eps, delta));
        if (clip != null) {
            b.clipRadius(clip);
        }
        if (centre != null) {
            double[] c = centre;
            if (c.length == 1 && d > 1) { // one value for every column, as `mean --centre` takes it
                c = new double[d];
                java.util.Arrays.fill(c, centre[0]);
            }
            b.centre(c);
        }
        if (box != null) {
            b.bounds(box[0], box[1]);
        }
        if (rowBound != null) {
            b.rowBound(rowBound);
        }
        if (minEigenvalue != null) {
            b.minEigenvalue(minEigenvalue);
        }
        if (variances != null) {
            b.variances(variances);
        }
        if (rank != null) {
            b.rank(rank);
        }
        if (lambda != null) {
            b.lambda(lambda);
        }
        b.intercept(intercept);
        b.pointEstimate(!"sample".equals(output)); // blr: the point estimate unless the sample is asked for
        return b.build();
    }

    private void print(Planner.Plan plan, PrintWriter out) {
        out.printf(Locale.ROOT, "plan for %s: n=%d, d=%d, epsilon=%s, delta=%s (no data read, no budget spent)%n",
                plan.query().family().id(), n, d, ReleasePrinter.fmt(epsilon), ReleasePrinter.fmt(delta));
        for (PlannedMethod m : plan.methods()) {
            out.println();
            out.println("  " + m.method() + (m.applicable() ? "" : "  (does not run on these facts)"));
            if (m.applicable()) {
                m.predicted().ifPresentOrElse(
                        a -> ReleasePrinter.wrap("    predicted: ", ReleasePrinter.accuracyText(a)).forEach(out::println),
                        () -> out.println("    predicted: (this method states no a-priori accuracy)"));
            } else {
                ReleasePrinter.wrap("    why not:   ", m.reason()).forEach(out::println);
            }
            m.minimumRows().ifPresent(r -> out.printf(Locale.ROOT, "    minimum n: %,d%n", r));
            if (!m.needs().isEmpty()) {
                ReleasePrinter.wrap("    needs:     ", String.join("; ", m.needs())).forEach(out::println);
            }
            if (!m.whenToChoose().isEmpty()) {
                ReleasePrinter.wrap("    choose it: ", m.whenToChoose()).forEach(out::println);
            }
            if (!m.command().isEmpty()) {
                ReleasePrinter.wrap("    run:       ", m.command().contains("--input") ? m.command()
                        : m.command() + " --input FILE").forEach(out::println);
            }
        }
        out.println();
        if (plan.recommended().isPresent()) {
            ReleasePrinter.wrap("recommended: ", plan.recommended().get().method() + ", " + plan.reason())
                    .forEach(out::println);
        } else {
            ReleasePrinter.wrap("recommended: none; ", plan.reason()).forEach(out::println);
        }
    }
}
