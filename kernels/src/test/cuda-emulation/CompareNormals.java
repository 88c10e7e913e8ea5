import java.nio.file.Files;
import java.nio.file.Path;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.random.Philox4x32;

/**
 * Compares emu-normals.txt (the CUDA generator code of counter_rng.cuh, run on the host by
 * kernels_emu_test.cpp) with the Java generators: 64-bit words bit-identical, normals within 1e-14
 * relative (host libm vs Java Math). Run by run.sh with the cpu-fallback classes on the classpath.
 */
public class CompareNormals {
    public static void main(String[] args) throws Exception {
        ChaCha20 c = ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 9L);
        Philox4x32 p = Philox4x32.withKey(77L, 9L);
        int bad = 0;
        int lines = 0;
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.trim().split(" ");
            long k = Long.parseLong(f[0]);
            double zc = Double.parseDouble(f[1]);
            double zp = Double.parseDouble(f[2]);
            long w = Long.parseUnsignedLong(f[3], 16);
            lines++;
            if (w != c.word(k)) {
                System.err.println("ChaCha20 word " + k + ": cuda " + Long.toHexString(w) + " java " + Long.toHexString(c.word(k)));
                bad++;
            }
            if (Math.abs(zc - c.normal(k)) > 1e-14 * Math.max(1, Math.abs(zc))) {
                System.err.println("ChaCha20 normal " + k + ": cuda " + zc + " java " + c.normal(k));
                bad++;
            }
            if (Math.abs(zp - p.normal(k)) > 1e-14 * Math.max(1, Math.abs(zp))) {
                System.err.println("Philox normal " + k + ": cuda " + zp + " java " + p.normal(k));
                bad++;
            }
        }
        if (bad > 0 || lines == 0) {
            System.err.println(bad + " mismatch(es) in " + lines + " lines");
            System.exit(1);
        }
        System.out.println("generator parity: " + lines + " words bit-identical, normals within 1e-14 (CUDA code on the host vs Java)");
    }
}
