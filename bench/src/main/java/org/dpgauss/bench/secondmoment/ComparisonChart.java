package org.dpgauss.bench.secondmoment;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The comparison's PNGs: one panel per (input, d); measured mean error (solid) and spec prediction (dashed); and the
 * recursive-variants PNG ({@link #writeVariants}).
 */
final class ComparisonChart {

    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b)};

    private ComparisonChart() {
    }

    /** How one method's measured line is drawn. */
    static final class Style {
        final Color color;
        final float width;
        final float[] dash;

        Style(Color color, float width, float[] dash) {
            this.color = color;
            this.width = width;
            this.dash = dash;
        }

        BasicStroke stroke() {
            return dash == null ? new BasicStroke(width)
                    : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, dash, 0);
        }
    }

    static void write(List<Map<String, Object>> cells, int[] dims, String[] inputs, String[] methods, double[] rhos,
            int n, int runs, File png) throws IOException {
        Style[] styles = new Style[methods.length];
        for (int mi = 0; mi < methods.length; mi++) {
            styles[mi] = new Style(COLORS[mi % COLORS.length], 2.4f, null);
        }
        write(cells, dims, inputs, methods, styles, true, rhos, n, runs, png,
                String.format(Locale.ROOT, "Relative spectral error ||S^-1/2 S~ S^-1/2 - I||, n=%d", n),
                String.format(Locale.ROOT, "solid: mean of %d runs (FAIL runs excluded; a method with no line failed"
                        + " every run); dashed: the spec's prediction (see JSON for formulas); insecure seeded noise",
                        runs));
    }

    /**
     * The recursive-variants PNG: the default recursive (solid), its variants (dashed, one colour each) and the
     * analyze-gauss and coinpress baselines (thin grey-ish), measured means only.
     */
    static void writeVariants(List<Map<String, Object>> cells, int[] dims, String[] inputs, String[] methods,
            double[] rhos, int n, int runs, File png) throws IOException {
        Color[] variantColors = {new Color(0x9467bd), new Color(0x17becf), new Color(0xd62728), new Color(0x8c564b)};
        Style[] styles = new Style[methods.length];
        int vi = 0;
        for (int mi = 0; mi < methods.length; mi++) {
            String m = methods[mi];
            if (m.equals("recursive")) {
                styles[mi] = new Style(COLORS[0], 3f, null);
            } else if (m.startsWith("recursive[")) {
                styles[mi] = new Style(variantColors[vi++ % variantColors.length], 2.4f, new float[] {9, 5});
            } else if (m.equals("analyze-gauss")) {
                styles[mi] = new Style(COLORS[1], 1.4f, new float[] {2, 3});
            } else if (m.equals("coinpress")) {
                styles[mi] = new Style(COLORS[2], 1.4f, new float[] {2, 3});
            }
        }
        write(cells, dims, inputs, methods, styles, false, rhos, n, runs, png,
                String.format(Locale.ROOT, "recursive (Algorithm 1/2) variants: relative spectral error, n=%d", n),
                String.format(Locale.ROOT, "mean of %d runs, same data and noise seeds; solid: default m=d,"
                        + " dashed: variants (all rho-zCDP; m<d voids the paper's accuracy bound); dotted: baselines",
                        runs));
    }

    @SuppressWarnings("unchecked")
    private static void write(List<Map<String, Object>> cells, int[] dims, String[] inputs, String[] methods,
            Style[] styles, boolean predictions, double[] rhos, int n, int runs, File png, String title,
            String subtitle) throws IOException {
        int panelW = 800;
        int panelH = 560;
        int titleH = 70;
        BufferedImage img = new BufferedImage(panelW * inputs.length, titleH + panelH * dims.length,
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font("SansSerif", Font.BOLD, 20));
        g.drawString(title, 20, 28);
        g.setFont(new Font("SansSerif", Font.PLAIN, 15));
        g.drawString(subtitle, 20, 54);
        for (int di = 0; di < dims.length; di++) {
            for (int ii = 0; ii < inputs.length; ii++) {
                XYSeriesCollection ds = new XYSeriesCollection();
                XYLineAndShapeRenderer rend = new XYLineAndShapeRenderer(true, true);
                for (int mi = 0; mi < methods.length; mi++) {
                    if (styles[mi] == null) {
                        continue;
                    }
                    XYSeries meas = new XYSeries(methods[mi], false, false);
                    XYSeries pred = new XYSeries(methods[mi] + " (predicted)", false, false);
                    for (Map<String, Object> c : cells) {
                        if (!c.get("method").equals(methods[mi]) || (Integer) c.get("d") != dims[di]
                                || !c.get("input").equals(inputs[ii])) {
                            continue;
                        }
                        double rho = (Double) c.get("rho");
                        Object mean = ((Map<String, Object>) c.get("relativeSpectralError")).get("mean");
                        if (mean instanceof Number && ((Number) mean).doubleValue() > 0) {
                            meas.add(rho, ((Number) mean).doubleValue());
                        }
                        Object pv = ((Map<String, Object>) c.get("prediction")).get("value");
                        if (predictions && pv instanceof Number && ((Number) pv).doubleValue() > 0) {
                            pred.add(rho, ((Number) pv).doubleValue());
                        }
                    }
                    Color col = styles[mi].color;
                    if (meas.getItemCount() > 0) {
                        ds.addSeries(meas);
                        int k = ds.getSeriesCount() - 1;
                        rend.setSeriesPaint(k, col);
                        rend.setSeriesStroke(k, styles[mi].stroke());
                    }
                    if (pred.getItemCount() > 0) {
                        ds.addSeries(pred);
                        int k = ds.getSeriesCount() - 1;
                        rend.setSeriesPaint(k, col);
                        rend.setSeriesStroke(k, new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
                                10, new float[] {7, 5}, 0));
                        rend.setSeriesShapesFilled(k, false);
                    }
                }
                LogAxis x = new LogAxis("\u03c1 (zCDP budget, log scale)");
                x.setSmallestValue(1e-3);
                x.setNumberFormatOverride(new java.text.DecimalFormat("0.##"));
                x.setTickUnit(new NumberTickUnit(Math.log10(2))); // ticks at 0.1, 0.2, 0.4, 0.8 and 0.125 .. 1
                x.setRange(rhos[0] * 0.8, rhos[rhos.length - 1] * 1.25);
                LogAxis y = new LogAxis("relative spectral error (log scale)");
                y.setSmallestValue(1e-6);
                y.setTickUnit(new NumberTickUnit(1)); // one tick per decade
                y.setNumberFormatOverride(new java.text.DecimalFormat("0E0"));
                XYPlot plot = new XYPlot(ds, x, y, rend);
                plot.setBackgroundPaint(Color.WHITE);
                plot.setDomainGridlinePaint(new Color(0xcccccc));
                plot.setRangeGridlinePaint(new Color(0xcccccc));
                JFreeChart chart = new JFreeChart(inputs[ii] + ", d=" + dims[di], new Font("SansSerif", Font.BOLD, 16),
                        plot, true);
                chart.setBackgroundPaint(Color.WHITE);
                chart.draw(g, new Rectangle2D.Double(ii * panelW, titleH + di * panelH, panelW, panelH));
            }
        }
        g.dispose();
        ImageIO.write(img, "png", png);
    }
}
