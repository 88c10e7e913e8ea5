package org.dpgauss.bench.figure2;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Draws Figure 2 (ratio p*_NDIS / p_LSV against epsilon, log-scale epsilon axis) headless with JFreeChart. */
public final class Figure2Chart {

    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd)};

    private Figure2Chart() {
    }

    /** Writes the PNG. */
    public static void write(Figure2Data data, File png, int width, int height) throws IOException {
        XYSeriesCollection dataset = new XYSeriesCollection();
        for (Figure2Data.Series s : data.series()) {
            XYSeries xy = new XYSeries("r = " + s.r(), false, false);
            double[] eps = data.epsilons();
            for (int i = 0; i < eps.length; i++) {
                xy.add(eps[i], s.ratio()[i]);
            }
            dataset.addSeries(xy);
        }
        LogAxis x = new FixedTickLogAxis("privacy loss \u03b5 (log scale)");
        x.setBase(10);
        x.setSmallestValue(1e-3);
        x.setRange(0.09, 5.5);
        NumberAxis y = new NumberAxis("improvement factor p*_NDIS / p_LSV");
        y.setAutoRangeIncludesZero(false);
        y.setRange(5.5, 10);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < dataset.getSeriesCount(); i++) {
            renderer.setSeriesPaint(i, COLORS[i % COLORS.length]);
            renderer.setSeriesStroke(i, new BasicStroke(2.2f));
        }
        XYPlot plot = new XYPlot(dataset, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xcccccc));
        plot.setRangeGridlinePaint(new Color(0xcccccc));
        JFreeChart chart = new JFreeChart("NDIS vs LSV leverage bound (Figure 2 reproduction)",
                new Font("SansSerif", Font.BOLD, 18), plot, true);
        chart.addSubtitle(new TextTitle("\u03b4 = " + String.format(java.util.Locale.ROOT, "%.0e", data.delta()) + ", l = 1, r \u2208 {50, 100, 200, 500};"
                + " ratio > 1: LSV needs a larger ridge", new Font("SansSerif", Font.PLAIN, 13)));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png, chart, width, height);
    }

    /** A log axis with ticks at round values (0.1, 0.2, 0.3, 0.5, 1, 2, 3, 5) instead of powers 10^(k/10). */
    private static final class FixedTickLogAxis extends LogAxis {
        private static final long serialVersionUID = 1L;
        private static final double[] TICKS = {0.1, 0.2, 0.3, 0.5, 1, 2, 3, 5};

        FixedTickLogAxis(String label) {
            super(label);
        }

        @Override
        @SuppressWarnings("rawtypes")
        protected List refreshTicksHorizontal(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
            List<NumberTick> ticks = new ArrayList<>();
            for (double t : TICKS) {
                ticks.add(new NumberTick(t, new java.text.DecimalFormat("0.#").format(t), TextAnchor.TOP_CENTER,
                        TextAnchor.CENTER, 0.0));
            }
            return ticks;
        }
    }
}
