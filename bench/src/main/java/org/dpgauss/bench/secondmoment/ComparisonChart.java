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

/** The comparison's PNG: one panel per (input, d); measured mean error (solid) and spec prediction (dashed). */
final class ComparisonChart {

    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b)};

    private ComparisonChart() {
    }

    @SuppressWarnings("unchecked")
    static void write(List<Map<String, Object>> cells, int[] dims, String[] inputs, String[] methods, double[] rhos,
            int n, int runs, File png) throws IOException {
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
        g.drawString(String.format(Locale.ROOT, "Relative spectral error ||S^-1/2 S~ S^-1/2 - I||, n=%d", n), 20, 28);
        g.setFont(new Font("SansSerif", Font.PLAIN, 15));
        g.drawString(String.format(Locale.ROOT, "solid: mean of %d runs (FAIL runs excluded; a method with no line failed"
                + " every run); dashed: the spec's prediction (see JSON for formulas); insecure seeded noise", runs), 20,
                54);
        for (int di = 0; di < dims.length; di++) {
            for (int ii = 0; ii < inputs.length; ii++) {
                XYSeriesCollection ds = new XYSeriesCollection();
                XYLineAndShapeRenderer rend = new XYLineAndShapeRenderer(true, true);
                for (int mi = 0; mi < methods.length; mi++) {
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
                        if (pv instanceof Number && ((Number) pv).doubleValue() > 0) {
                            pred.add(rho, ((Number) pv).doubleValue());
                        }
                    }
                    Color col = COLORS[mi % COLORS.length];
                    if (meas.getItemCount() > 0) {
                        ds.addSeries(meas);
                        int k = ds.getSeriesCount() - 1;
                        rend.setSeriesPaint(k, col);
                        rend.setSeriesStroke(k, new BasicStroke(2.4f));
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
