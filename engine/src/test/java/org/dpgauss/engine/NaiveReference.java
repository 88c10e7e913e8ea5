package org.dpgauss.engine;

import java.util.Arrays;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.CounterBasedGenerator;

/** Textbook double-loop versions of every primitive; the contract test's oracle. */
final class NaiveReference {

    private NaiveReference() {
    }

    static double[][] gram(double[][] y, int[] rows, double[] w, double m) {
        int d = y[0].length;
        double[][] a = new double[d][d];
        int[] sel = rows != null ? rows : all(y.length);
        for (int i : sel) {
            double wi = w == null ? 1 : w[i];
            for (int p = 0; p < d; p++) {
                for (int q = 0; q < d; q++) {
                    a[p][q] += wi * y[i][p] * y[i][q];
                }
            }
        }
        for (double[] r : a) {
            for (int q = 0; q < d; q++) {
                r[q] /= m;
            }
        }
        return a;
    }

    static double[][] product(double[][] a, boolean ta, double[][] b, boolean tb) {
        double[][] aa = ta ? transpose(a) : a;
        double[][] bb = tb ? transpose(b) : b;
        double[][] c = new double[aa.length][bb[0].length];
        for (int i = 0; i < aa.length; i++) {
            for (int j = 0; j < bb[0].length; j++) {
                double s = 0;
                for (int k = 0; k < bb.length; k++) {
                    s += aa[i][k] * bb[k][j];
                }
                c[i][j] = s;
            }
        }
        return c;
    }

    static double[][] transpose(double[][] a) {
        double[][] t = new double[a[0].length][a.length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a[0].length; j++) {
                t[j][i] = a[i][j];
            }
        }
        return t;
    }

    /** Inverse by Gauss-Jordan with partial pivoting (for well-conditioned test matrices). */
    static double[][] inverse(double[][] a) {
        int d = a.length;
        double[][] m = new double[d][2 * d];
        for (int i = 0; i < d; i++) {
            System.arraycopy(a[i], 0, m[i], 0, d);
            m[i][d + i] = 1;
        }
        for (int c = 0; c < d; c++) {
            int piv = c;
            for (int r = c + 1; r < d; r++) {
                if (Math.abs(m[r][c]) > Math.abs(m[piv][c])) {
                    piv = r;
                }
            }
            double[] t = m[c];
            m[c] = m[piv];
            m[piv] = t;
            double p = m[c][c];
            for (int j = 0; j < 2 * d; j++) {
                m[c][j] /= p;
            }
            for (int r = 0; r < d; r++) {
                if (r != c) {
                    double f = m[r][c];
                    for (int j = 0; j < 2 * d; j++) {
                        m[r][j] -= f * m[c][j];
                    }
                }
            }
        }
        double[][] inv = new double[d][d];
        for (int i = 0; i < d; i++) {
            System.arraycopy(m[i], d, inv[i], 0, d);
        }
        return inv;
    }

    static double quadForm(double[][] ainv, double[] y) {
        double s = 0;
        for (int p = 0; p < y.length; p++) {
            for (int q = 0; q < y.length; q++) {
                s += y[p] * ainv[p][q] * y[q];
            }
        }
        return s;
    }

    static double dist2(double[] a, double[] b) {
        double s = 0;
        for (int c = 0; c < a.length; c++) {
            s += (a[c] - b[c]) * (a[c] - b[c]);
        }
        return s;
    }

    static double[][] largestDistances(double[][] x, double[][] ref, int keep) {
        double[][] out = new double[x.length][keep];
        for (int i = 0; i < x.length; i++) {
            double[] all = new double[ref.length];
            for (int j = 0; j < ref.length; j++) {
                all[j] = dist2(x[i], ref[j]);
            }
            Arrays.sort(all);
            for (int s = 0; s < keep; s++) {
                out[i][s] = all[ref.length - 1 - s];
            }
        }
        return out;
    }

    static int[] neighbourCounts(double[][] x, double radius) {
        int[] c = new int[x.length];
        for (int i = 0; i < x.length; i++) {
            for (int k = 0; k < x.length; k++) {
                if (dist2(x[i], x[k]) <= radius * radius) {
                    c[i]++;
                }
            }
        }
        return c;
    }

    static double[][] projection(double[][] data, int r, CounterBasedGenerator g, long first) {
        int n = data.length;
        int d = data[0].length;
        double[][] out = new double[d][r];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < r; j++) {
                double gij = g.normal(first + (long) i * r + j);
                for (int p = 0; p < d; p++) {
                    out[p][j] += data[i][p] * gij;
                }
            }
        }
        return out;
    }

    /** Cyclic Jacobi eigenvalues of a symmetric matrix, ascending. */
    static double[] jacobiEigenvalues(double[][] a0) {
        int d = a0.length;
        double[][] a = new double[d][];
        for (int i = 0; i < d; i++) {
            a[i] = a0[i].clone();
        }
        for (int sweep = 0; sweep < 100; sweep++) {
            double off = 0;
            for (int p = 0; p < d; p++) {
                for (int q = p + 1; q < d; q++) {
                    off += a[p][q] * a[p][q];
                }
            }
            if (off < 1e-30) {
                break;
            }
            for (int p = 0; p < d; p++) {
                for (int q = p + 1; q < d; q++) {
                    if (a[p][q] == 0) {
                        continue;
                    }
                    double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                    double t = Math.signum(theta == 0 ? 1 : theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    double c = 1 / Math.sqrt(t * t + 1);
                    double s = t * c;
                    for (int k = 0; k < d; k++) {
                        double akp = a[k][p];
                        double akq = a[k][q];
                        a[k][p] = c * akp - s * akq;
                        a[k][q] = s * akp + c * akq;
                    }
                    for (int k = 0; k < d; k++) {
                        double apk = a[p][k];
                        double aqk = a[q][k];
                        a[p][k] = c * apk - s * aqk;
                        a[q][k] = s * apk + c * aqk;
                    }
                }
            }
        }
        double[] ev = new double[d];
        for (int i = 0; i < d; i++) {
            ev[i] = a[i][i];
        }
        Arrays.sort(ev);
        return ev;
    }

    /**
     * LargestGoodSubset exactly as spec §3.3 writes it, with Gram, inverse and quadratic forms by loops.
     * Singularity is decided by the smallest Jacobi eigenvalue relative to the largest.
     */
    static boolean[] largestGoodSubset(double[][] y, double lambda, double m) {
        boolean[] s = new boolean[y.length];
        Arrays.fill(s, true);
        while (true) {
            int count = 0;
            for (boolean b : s) {
                count += b ? 1 : 0;
            }
            if (count == 0) {
                return s;
            }
            int[] rows = new int[count];
            int k = 0;
            for (int i = 0; i < y.length; i++) {
                if (s[i]) {
                    rows[k++] = i;
                }
            }
            double[][] a = gram(y, rows, null, m);
            double[] ev = jacobiEigenvalues(a);
            if (ev[0] <= 1e-9 * Math.max(ev[ev.length - 1], Double.MIN_NORMAL)) {
                return new boolean[y.length];
            }
            double[][] inv = inverse(a);
            boolean removed = false;
            for (int i : rows) {
                if (quadForm(inv, y[i]) > lambda) {
                    s[i] = false;
                    removed = true;
                }
            }
            if (!removed) {
                return s;
            }
        }
    }

    static int[] all(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    static double[][] toArray(RowBlockMatrix m) {
        return m.toArray();
    }
}
