package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.dpgauss.cli.Main;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * {@code --plot} with {@code --master} (issue 26 item 4): {@code pca}, the one command that both reads data (so takes
 * {@code --master}) and draws, writes its scree plot on the driver from the released values only. The PNG is read
 * back: readable, 900 x 600, ink in the series' colours, and the numbers it carries (its {@code dpgauss-plot} iTXt
 * chunk) are the released variances exactly; it is byte for byte the image of the same release computed without
 * {@code --master}. A plot that cannot be written is refused before anything is charged or any Spark job runs, and
 * with a ledger a replay draws the stored release at no cost.
 */
class CliMasterPlotTest {

    private static final int D = 4;
    private static final double[][] X = TestSpark.gaussian(600, D, 31);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** PlotWriter's first two series colours (Okabe-Ito blue, vermillion). */
    private static final int FIRST = 0x0072B2;
    private static final int SECOND = 0xD55E00;

    @TempDir
    static Path dir;

    @BeforeAll
    static void files() throws IOException {
        StringBuilder csv = new StringBuilder();
        for (double[] r : X) {
            for (int j = 0; j < D; j++) {
                csv.append(j == 0 ? "" : ",").append(r[j]);
            }
            csv.append('\n');
        }
        Files.writeString(dir.resolve("x.csv"), csv);
        TestSpark.table(X, 3, 7).write().parquet(dir.resolve("x.parquet").toString());
        Files.writeString(dir.resolve("ref.txt"), "0.3125\n0.1875\n0.0625\n");
    }

    private static String[] run(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(new String[0]), new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    private static List<String> pca(String input, String... extra) {
        List<String> a = new ArrayList<>(List.of("pca", "--input", dir.resolve(input).toString(), "--k", "3",
                "--radius", "2", "--rho", "0.5", "--insecure-seed", "13", "--engine", "ejml", "--json"));
        a.addAll(Arrays.asList(extra));
        return a;
    }

    private static List<String> master(List<String> local) {
        List<String> a = new ArrayList<>(local);
        a.addAll(List.of("--master", "local[2]", "--id-column", "id", "--columns", "x1,x2,x3,x4"));
        return a;
    }

    /** The release's JSON without what says where it ran or was read from, and without the plot's file name. */
    private static JsonNode release(String[] r) throws IOException {
        assertEquals("0", r[0], r[2]);
        ObjectNode j = (ObjectNode) JSON.readTree(r[1]);
        j.remove("input");
        j.remove("plot");
        ((ObjectNode) j.get("parameters")).remove("executorEngine");
        return j;
    }

    /** The text of the PNG's iTXt chunk {@code dpgauss-plot}, read with the JDK's own PNG reader. */
    private static JsonNode plotData(Path png) throws IOException {
        try (ImageInputStream in = ImageIO.createImageInputStream(png.toFile())) {
            ImageReader r = ImageIO.getImageReadersByFormatName("png").next();
            try {
                r.setInput(in);
                Node root = r.getImageMetadata(0).getAsTree("javax_imageio_png_1.0");
                for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
                    for (Node e = n.getFirstChild(); n.getNodeName().equals("iTXt") && e != null;
                            e = e.getNextSibling()) {
                        NamedNodeMap a = e.getAttributes();
                        if ("dpgauss-plot".equals(a.getNamedItem("keyword").getNodeValue())) {
                            return JSON.readTree(a.getNamedItem("text").getNodeValue());
                        }
                    }
                }
            } finally {
                r.dispose();
            }
        }
        throw new AssertionError(png + " has no dpgauss-plot chunk");
    }

    /** Not blank: some ink, several colours, and every colour of {@code colours} drawn. */
    private static void inked(BufferedImage img, int... colours) {
        Set<Integer> distinct = new HashSet<>();
        Set<Integer> want = new HashSet<>();
        for (int c : colours) {
            want.add(c);
        }
        long ink = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y) & 0xFFFFFF;
                distinct.add(rgb);
                want.remove(rgb);
                ink += rgb == 0xFFFFFF ? 0 : 1;
            }
        }
        double share = ink / (double) (img.getWidth() * img.getHeight());
        assertTrue(share > 0.01 && share < 0.6, "ink share " + share);
        assertTrue(distinct.size() >= 8, distinct.size() + " colours");
        assertTrue(want.isEmpty(), "series colours not drawn: " + want);
    }

    @Test
    void pcaOnTheClusterDrawsTheReleasedVariances() throws IOException {
        Path there = dir.resolve("there.png");
        Path here = dir.resolve("here.png");
        String[] m = run(master(pca("x.parquet", "--plot", there.toString(), "--plot-reference",
                dir.resolve("ref.txt").toString())));
        JsonNode onCluster = release(m);
        assertEquals(there.toString(), JSON.readTree(m[1]).get("plot").asText());
        assertEquals("PASS", onCluster.get("status").asText());
        // the release is the one printed without --plot and without --master
        assertEquals(release(run(pca("x.csv"))), onCluster, "--plot on the cluster changes the release");
        assertEquals(onCluster, release(run(master(pca("x.parquet")))));

        BufferedImage img = ImageIO.read(there.toFile());
        assertNotNull(img, "a readable PNG");
        assertEquals(900, img.getWidth());
        assertEquals(600, img.getHeight());
        inked(img, FIRST, SECOND);
        // its numbers: the released variances, exactly, at components 1..k; the reference named, its values not
        JsonNode panel = plotData(there).get("panels").get(0);
        JsonNode released = onCluster.get("variances");
        assertEquals(3, released.size());
        JsonNode priv = panel.get("series").get(0);
        assertEquals(released, priv.get("y"));
        assertArrayEquals(new double[] {1, 2, 3}, JSON.treeToValue(priv.get("x"), double[].class));
        JsonNode ref = panel.get("series").get(1);
        assertTrue(ref.get("nonPrivate").asBoolean() && ref.get("name").asText().contains("NON-PRIVATE"), ref + "");
        assertFalse(ref.has("y"), "the user's non-private numbers are not stored in the image");

        // the same release drawn without --master: the same image, byte for byte
        assertEquals(onCluster, release(run(pca("x.csv", "--plot", here.toString(), "--plot-reference",
                dir.resolve("ref.txt").toString()))));
        assertArrayEquals(Files.readAllBytes(here), Files.readAllBytes(there), "the image of the same release");
    }

    /**
     * A plot that cannot be written (no such directory) is refused before anything is charged (the ledger holds no
     * release) or read (the input's second row is malformed: reading it would fail otherwise); with a ledger, a
     * query repeated with another (or no) plot file is a replay at no cost, and its plot is the stored release's.
     */
    @Test
    void refusedBeforeAnyChargeAndReplayedFromTheLedger() throws IOException {
        Path ledger = dir.resolve("l.db");
        String[] c = run(List.of("ledger", "create", "d", "--ledger", ledger.toString(), "--epsilon", "20",
                "--delta", "1e-6", "--relation", "replace-one"));
        assertEquals("0", c[0], c[2]);
        List<String> charged = List.of("--ledger", ledger.toString(), "--dataset", "d");
        Files.writeString(dir.resolve("bad.csv"), "1,2,3,4\n5,six,7,8\n");
        List<String> bad = new ArrayList<>(pca("bad.csv", "--plot", dir.resolve("nowhere/p.png").toString(),
                "--master", "local[2]"));
        bad.addAll(charged);
        String[] refused = run(bad);
        assertEquals("1", refused[0], refused[2]);
        assertTrue(refused[2].contains("does not exist"), refused[2]);
        assertEquals(0, JSON.readTree(run(List.of("ledger", "show", "d", "--ledger", ledger.toString(), "--json"))[1])
                .get("releases").size(), "nothing charged");

        List<String> first = master(pca("x.parquet", "--plot", dir.resolve("l1.png").toString()));
        first.addAll(charged);
        JsonNode r1 = release(run(first));
        List<String> again = master(pca("x.parquet", "--plot", dir.resolve("l2.png").toString()));
        again.addAll(charged);
        String[] second = run(again);
        JsonNode r2 = release(second);
        assertEquals(1, r2.get("parameters").get("ledgerReplayOf").asInt(), "a replay: " + second[1]);
        assertEquals(r1.get("variances"), r2.get("variances"));
        assertEquals(r2.get("variances"), plotData(dir.resolve("l2.png")).get("panels").get(0).get("series").get(0)
                .get("y"));
        List<String> plain = master(pca("x.parquet"));
        plain.addAll(charged);
        assertEquals(1, release(run(plain)).get("parameters").get("ledgerReplayOf").asInt(), "without --plot too");
        assertEquals(1, JSON.readTree(run(List.of("ledger", "show", "d", "--ledger", ledger.toString(), "--json"))[1])
                .get("releases").size(), "one charge for the three runs");
    }
}
