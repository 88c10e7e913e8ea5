package org.dpgauss.bench;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.*;
import java.util.Random;
/** Times EJML single-thread vs concurrent d x d products; sets MatrixProduct.CONCURRENT_THRESHOLD. */
public final class ConcurrentProductCheck {
  private ConcurrentProductCheck() {
  }

  public static void main(String[] a) {
    for (int d : new int[]{32, 64, 128, 256, 500, 1000}) {
      DMatrixRMaj x = RandomMatrices_DDRM.rectangle(d, d, new Random(1));
      DMatrixRMaj c = new DMatrixRMaj(d, d);
      int reps = Math.max(3, (int) (2e9 / ((double) d * d * d)));
      double[] best = new double[2];
      for (int v = 0; v < 2; v++) {
        double b = 1e9;
        for (int round = 0; round < 5; round++) {
          long t0 = System.nanoTime();
          for (int r = 0; r < reps; r++) { if (v == 0) CommonOps_DDRM.mult(x, x, c); else CommonOps_MT_DDRM.mult(x, x, c); }
          b = Math.min(b, (System.nanoTime() - t0) / 1e9 / reps);
        }
        best[v] = b;
      }
      System.out.printf("d=%d single=%.3e s concurrent=%.3e s ratio single/concurrent=%.2f%n", d, best[0], best[1], best[0] / best[1]);
    }
  }
}
