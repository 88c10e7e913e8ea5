package org.dpgauss.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontFormatException;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws {@link PlotData.Chart}s into a PNG with JFreeChart, headless. The only class of the command line that uses
 * JFreeChart or AWT: it is loaded when a command is given {@code --plot} and never otherwise (a command's start does
 * not pay for it, and a runtime without java.desktop runs every other command).
 *
 * <p>Text is drawn with the DejaVu Sans subset bundled in the jar ({@code /org/dpgauss/cli/fonts/}), never a system
 * font: a fresh machine or container may have no font at all, and then the JDK's font manager cannot start
 * ("Fontconfig head is null": even {@code Font.createFont} fails) and the logical fonts fail inside the first text
 * measurement (both reproduced with {@code /usr/share/fonts} hidden). {@link #installFontConfiguration} gives the
 * font manager a configuration whose every logical font is the bundled one, so it starts and draws the same image
 * on such a machine as on any other.
 */
final class PlotWriter {

    /** Width and height of one panel, pixels. */
    static final int PANEL_WIDTH = 900;
    static final int PANEL_HEIGHT = 600;

    private static final String FONT = "/org/dpgauss/cli/fonts/DejaVuSans-subset.ttf";

    /** Distinct, colour-blind-safe line colours (Okabe-Ito). */
    private static final Color[] COLOURS = {new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73),
        new Color(0xCC79A7), new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0xF0E442)};

    private PlotWriter() {
    }

    /**
     * Writes the charts side by side into one PNG (written to a temporary file beside it and moved into place, so a
     * reader never sees half an image).
     *
     * @param file the PNG
     * @param charts one or more panels
     * @throws IOException if the file cannot be written
     */
    static void write(Path file, List<PlotData.Chart> charts) throws IOException {
        BufferedImage img = render(charts);
        Path abs = file.toAbsolutePath();
        Path tmp = Files.createTempFile(abs.getParent(), ".dpgauss-plot-", ".png");
        try {
            writePng(img, Json.write(PlotData.describe(charts)), tmp);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Writes the image as a PNG with one iTXt chunk (keyword {@link PlotData#PNG_KEYWORD}, UTF-8) holding
     * {@code data}: the numbers drawn ({@link PlotData#describe}).
     */
    private static void writePng(BufferedImage img, String data, Path file) throws IOException {
        java.util.Iterator<javax.imageio.ImageWriter> writers = ImageIO.getImageWritersByFormatName("png");
        if (!writers.hasNext()) {
            throw new IOException("no PNG writer in this runtime");
        }
        javax.imageio.ImageWriter w = writers.next();
        try (javax.imageio.stream.ImageOutputStream out = ImageIO.createImageOutputStream(file.toFile())) {
            javax.imageio.ImageWriteParam param = w.getDefaultWriteParam();
            javax.imageio.metadata.IIOMetadata meta = w.getDefaultImageMetadata(
                    javax.imageio.ImageTypeSpecifier.createFromRenderedImage(img), param);
            String format = "javax_imageio_png_1.0";
            javax.imageio.metadata.IIOMetadataNode entry = new javax.imageio.metadata.IIOMetadataNode("iTXtEntry");
            entry.setAttribute("keyword", PlotData.PNG_KEYWORD);
            entry.setAttribute("compressionFlag", "TRUE");
            entry.setAttribute("compressionMethod", "0");
            entry.setAttribute("languageTag", "");
            entry.setAttribute("translatedKeyword", "");
            entry.setAttribute("text", data);
            javax.imageio.metadata.IIOMetadataNode itxt = new javax.imageio.metadata.IIOMetadataNode("iTXt");
            itxt.appendChild(entry);
            javax.imageio.metadata.IIOMetadataNode root = new javax.imageio.metadata.IIOMetadataNode(format);
            root.appendChild(itxt);
            meta.mergeTree(format, root);
            w.setOutput(out);
            w.write(null, new javax.imageio.IIOImage(img, null, meta), param);
        } finally {
            w.dispose();
        }
    }

    /**
     * The data chunk of a PNG written by {@link #write} (for tests and scripts that read an image back).
     *
     * @param file the PNG
     * @return the JSON text of its {@link PlotData#PNG_KEYWORD} chunk, or null if it has none
     * @throws IOException if it cannot be read
     */
    static String readData(Path file) throws IOException {
        try (javax.imageio.stream.ImageInputStream in = ImageIO.createImageInputStream(file.toFile())) {
            javax.imageio.ImageReader r = ImageIO.getImageReadersByFormatName("png").next();
            try {
                r.setInput(in);
                org.w3c.dom.Node root = r.getImageMetadata(0).getAsTree("javax_imageio_png_1.0");
                for (org.w3c.dom.Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (!n.getNodeName().equals("iTXt")) {
                        continue;
                    }
                    for (org.w3c.dom.Node e = n.getFirstChild(); e != null; e = e.getNextSibling()) {
                        org.w3c.dom.NamedNodeMap a = e.getAttributes();
                        if (PlotData.PNG_KEYWORD.equals(a.getNamedItem("keyword").getNodeValue())) {
                            return a.getNamedItem("text").getNodeValue();
                        }
                    }
                }
                return null;
            } finally {
                r.dispose();
            }
        }
    }

    /** The image of the charts, side by side. */
    static BufferedImage render(List<PlotData.Chart> charts) {
        if (charts.isEmpty()) {
            throw new IllegalArgumentException("nothing to plot");
        }
        System.setProperty("java.awt.headless", "true");
        installFontConfiguration();
        Font base = baseFont();
        BufferedImage img = new BufferedImage(PANEL_WIDTH * charts.size(), PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, img.getWidth(), img.getHeight());
            for (int i = 0; i < charts.size(); i++) {
                chart(charts.get(i), base).draw(g, new Rectangle2D.Double(i * PANEL_WIDTH, 0, PANEL_WIDTH,
                        PANEL_HEIGHT));
            }
        } finally {
            g.dispose();
        }
        return img;
    }

    private static boolean fontConfigurationDone;

    /**
     * Before the JDK's font manager starts (the first font or graphics of the process): unless the user set one,
     * points the system property {@code sun.awt.fontconfig} at a font configuration that maps every logical font
     * (SansSerif, Dialog, ..) to the bundled font, extracted to a temporary file. Without it, on a machine with no
     * font at all the font manager cannot even start ("Fontconfig head is null"), and every text, the bundled
     * font's included, fails; with it, such a machine draws the same image as any other. Where the font manager
     * has started already (another plot earlier in this process), the property is not read again and the system's
     * fonts answer: nothing changes.
     */
    static synchronized void installFontConfiguration() {
        if (fontConfigurationDone || System.getProperty("sun.awt.fontconfig") != null) {
            fontConfigurationDone = true;
            return;
        }
        fontConfigurationDone = true;
        try (InputStream in = PlotWriter.class.getResourceAsStream(FONT)) {
            if (in == null) {
                throw new IllegalStateException("the plot font " + FONT + " is missing from the jar");
            }
            Path ttf = Files.createTempFile("dpgauss-plot-font-", ".ttf");
            ttf.toFile().deleteOnExit();
            Files.copy(in, ttf, StandardCopyOption.REPLACE_EXISTING);
            java.util.Properties p = new java.util.Properties();
            p.setProperty("version", "1");
            p.setProperty("sequence.allfonts", "latin-1");
            for (String family : new String[] {"serif", "sansserif", "monospaced", "dialog", "dialoginput"}) {
                for (String style : new String[] {"plain", "bold", "italic", "bolditalic"}) {
                    p.setProperty(family + "." + style + ".latin-1", "DejaVu Sans");
                }
            }
            p.setProperty("filename.DejaVu_Sans", ttf.toAbsolutePath().toString().replace('\\', '/'));
            Path conf = Files.createTempFile("dpgauss-plot-fontconfig-", ".properties");
            conf.toFile().deleteOnExit();
            try (java.io.OutputStream out = Files.newOutputStream(conf)) {
                p.store(out, "dpgauss --plot: every logical font is the bundled DejaVu Sans subset");
            }
            System.setProperty("sun.awt.fontconfig", conf.toAbsolutePath().toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bundled font (see the class comment). */
    static Font baseFont() {
        try (InputStream in = PlotWriter.class.getResourceAsStream(FONT)) {
            if (in == null) {
                throw new IllegalStateException("the plot font " + FONT + " is missing from the jar");
            }
            Font f = Font.createFont(Font.TRUETYPE_FONT, in);
            // registered, so that a text that names its font by family (LogAxis's attributed tick labels, 10^-2)
            // finds it too; where the system has a DejaVu Sans already, that one answers the name (the same design)
            java.awt.GraphicsEnvironment.getLocalGraphicsEnvironment().registerFont(f);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (FontFormatException e) {
            throw new IllegalStateException("the plot font " + FONT + " cannot be read", e);
        }
    }

    /** The JFreeChart of one panel, every text in {@code base} (package-private: the tests read its datasets back). */
    static JFreeChart chart(PlotData.Chart c, Font base) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < c.series().size(); i++) {
            PlotData.Series s = c.series().get(i);
            XYSeries xy = new XYSeries(s.name(), false, true);
            double[] x = s.x();
            double[] y = s.y();
            for (int k = 0; k < x.length; k++) {
                xy.add(x[k], y[k]);
            }
            data.addSeries(xy);
            r.setSeriesShapesVisible(i, x.length <= 40);
        }
        ValueAxis xAxis = axis(c.xLabel(), c.logX(), base);
        if (xAxis instanceof NumberAxis && integral(c)) { // the scree's component indices: 1, 2, 3, never 1.5
            ((NumberAxis) xAxis).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        }
        ValueAxis yAxis = axis(c.yLabel(), c.logY(), base);
        if (yAxis instanceof LogAxis && decades(c) >= 4) { // whole powers of ten where the curve spans decades
            ((LogAxis) yAxis).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        } else if (yAxis instanceof LogAxis) { // within a few decades: 0.0126, not 10^-1.9
            ((LogAxis) yAxis).setNumberFormatOverride(new ShortNumber());
        }
        if (xAxis instanceof LogAxis) {
            ((LogAxis) xAxis).setNumberFormatOverride(new ShortNumber());
        }
        if (yAxis instanceof LogAxis && maxY(c) > 0 && decades(c) < FLAT_DECADES) {
            // a (nearly) flat curve, e.g. plan blr's point estimate against n (its noise does not depend on n):
            // auto-ranged, the axis would span its last digits and label every tick alike; a factor 2 either way
            // shows it flat, with readable ticks
            double lo = Math.pow(10, -decades(c)) * maxY(c);
            yAxis.setRange(lo / 2, maxY(c) * 2);
        }
        XYPlot plot = new XYPlot(data, xAxis, yAxis, r);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        for (Map.Entry<String, Double> m : c.markers().entrySet()) {
            ValueMarker vm = new ValueMarker(m.getValue(), Color.GRAY, new BasicStroke(1.2f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 10f, new float[] {3f, 3f}, 0f));
            vm.setLabel(m.getKey());
            vm.setLabelFont(base.deriveFont(12f));
            vm.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            vm.setLabelTextAnchor(TextAnchor.TOP_LEFT);
            plot.addDomainMarker(vm);
        }
        JFreeChart chart = new JFreeChart(c.title(), base.deriveFont(Font.BOLD, 16f), plot, true);
        StandardChartTheme theme = new StandardChartTheme("dpgauss");
        theme.setExtraLargeFont(base.deriveFont(Font.BOLD, 16f));
        theme.setLargeFont(base.deriveFont(14f));
        theme.setRegularFont(base.deriveFont(12f));
        theme.setSmallFont(base.deriveFont(10f));
        theme.setChartBackgroundPaint(Color.WHITE);
        theme.setPlotBackgroundPaint(Color.WHITE);
        theme.apply(chart); // every text of the chart in the bundled font (it resets paints and strokes: redo them)
        for (int i = 0; i < c.series().size(); i++) {
            r.setSeriesPaint(i, COLOURS[i % COLOURS.length]);
            r.setSeriesStroke(i, c.series().get(i).dashed() ? new BasicStroke(2.2f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f) : new BasicStroke(2.2f));
        }
        r.setDefaultItemLabelFont(base.deriveFont(11f)); // not drawn, but never a logical font either
        plot.setNoDataMessageFont(base.deriveFont(14f));
        plot.setDomainGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        if (!c.subtitle().isEmpty()) {
            chart.addSubtitle(new TextTitle(c.subtitle(), base.deriveFont(12f)));
        }
        return chart;
    }

    /** Three significant digits, plain between 1e-3 and 1e6 (0.0126, 2510, 0.5), else 1.26e-07. */
    static final class ShortNumber extends java.text.NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double v, StringBuffer to, java.text.FieldPosition pos) {
            double a = Math.abs(v);
            if (a != 0 && (a < 1e-3 || a >= 1e6) || !Double.isFinite(v)) {
                return to.append(String.format(java.util.Locale.ROOT, "%.3g", v));
            }
            return to.append(new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros()
                    .toPlainString());
        }

        @Override
        public StringBuffer format(long v, StringBuffer to, java.text.FieldPosition pos) {
            return format((double) v, to, pos);
        }

        @Override
        public Number parse(String source, java.text.ParsePosition pos) {
            throw new UnsupportedOperationException("a tick label format only");
        }
    }

    /** Below this span of a log y axis's data (a factor 2), the range is widened (see {@link #chart}). */
    static final double FLAT_DECADES = 0.3;

    private static double maxY(PlotData.Chart c) {
        double hi = 0;
        for (PlotData.Series s : c.series()) {
            for (double y : s.y()) {
                hi = y > 0 ? Math.max(hi, y) : hi;
            }
        }
        return hi;
    }

    private static double decades(PlotData.Chart c) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (PlotData.Series s : c.series()) {
            for (double y : s.y()) {
                if (y > 0) {
                    lo = Math.min(lo, y);
                    hi = Math.max(hi, y);
                }
            }
        }
        return hi > 0 ? Math.log10(hi / lo) : 0;
    }

    private static boolean integral(PlotData.Chart c) {
        for (PlotData.Series s : c.series()) {
            for (double x : s.x()) {
                if (x != Math.rint(x)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static ValueAxis axis(String label, boolean log, Font base) {
        if (log) {
            LogAxis a = new LogAxis(label);
            a.setSmallestValue(1e-300);
            a.setLabelFont(base.deriveFont(13f));
            a.setTickLabelFont(base.deriveFont(11f));
            return a;
        }
        NumberAxis a = new NumberAxis(label);
        a.setAutoRangeIncludesZero(false);
        a.setLabelFont(base.deriveFont(13f));
        a.setTickLabelFont(base.deriveFont(11f));
        return a;
    }
}
