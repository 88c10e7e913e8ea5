package org.dpgauss.gx2;

/**
 * Globally adaptive 7-point Gauss / 15-point Kronrod quadrature of a vector-valued integrand (QUADPACK QK15
 * nodes). The error of a segment is estimated by {@code |K15 - G7|}; the returned error is the sum over the final
 * segments, a conservative estimate of the quadrature error (the K15 value is returned, which is far more
 * accurate than G7 on smooth integrands).
 */
final class GaussKronrod {

    /** The integrand: writes its {@code out.length} components at {@code u}. */
    interface Integrand {
        void value(double u, double[] out);
    }

    private static final double[] XGK = {
        0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
        0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
        0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
        0.207784955007898467600689403773245, 0.000000000000000000000000000000000};
    private static final double[] WGK = {
        0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
        0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
        0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
        0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
    private static final double[] WG = {
        0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
        0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

    private final Integrand f;
    private final int n;
    private final double[] buf;
    private final double[] kron;
    private final double[] gauss;
    private long evaluations;

    GaussKronrod(Integrand f, int n) {
        this.f = f;
        this.n = n;
        this.buf = new double[n];
        this.kron = new double[n];
        this.gauss = new double[n];
    }

    long evaluations() {
        return evaluations;
    }

    /** One segment of the global adaptive scheme. */
    private record Segment(double a, double b, double[] value, double[] error, double priority) {
    }

    /**
     * Global adaptive integration (QUADPACK QAG style): starting from the segments between consecutive
     * {@code breaks}, the segment with the largest error relative to the tolerance is bisected until the summed
     * error estimates are within {@code tol} (per component) or {@code maxSegments} segments exist. The cost is
     * therefore bounded even when the tolerance is below the integrand's rounding noise. Adds the integral to
     * {@code sum} and its error estimate to {@code err}.
     */
    void integrate(double[] breaks, double[] tol, int maxSegments, double[] sum, double[] err) {
        java.util.PriorityQueue<Segment> queue =
            new java.util.PriorityQueue<>((p, q) -> Double.compare(q.priority, p.priority));
        double[] total = new double[n];
        double[] totalErr = new double[n];
        for (int i = 0; i + 1 < breaks.length; i++) {
            Segment s = segment(breaks[i], breaks[i + 1], tol);
            queue.add(s);
            for (int c = 0; c < n; c++) {
                total[c] += s.value[c];
                totalErr[c] += s.error[c];
            }
        }
        while (queue.size() < maxSegments && !converged(totalErr, tol)) {
            Segment s = queue.poll();
            double m = 0.5 * (s.a + s.b);
            if (!(m > s.a && m < s.b)) {
                queue.add(new Segment(s.a, s.b, s.value, s.error, -1));
                continue;
            }
            Segment l = segment(s.a, m, tol);
            Segment r = segment(m, s.b, tol);
            for (int c = 0; c < n; c++) {
                total[c] += l.value[c] + r.value[c] - s.value[c];
                totalErr[c] += l.error[c] + r.error[c] - s.error[c];
            }
            queue.add(l);
            queue.add(r);
            if (queue.peek().priority <= 0) {
                break;
            }
        }
        // Re-add exactly to avoid drift from the running updates.
        java.util.Arrays.fill(total, 0);
        java.util.Arrays.fill(totalErr, 0);
        for (Segment s : queue) {
            for (int c = 0; c < n; c++) {
                total[c] += s.value[c];
                totalErr[c] += s.error[c];
            }
        }
        for (int c = 0; c < n; c++) {
            sum[c] += total[c];
            err[c] += totalErr[c];
        }
    }

    private static boolean converged(double[] err, double[] tol) {
        for (int c = 0; c < err.length; c++) {
            if (!(err[c] <= tol[c])) {
                return false;
            }
        }
        return true;
    }

    private Segment segment(double a, double b, double[] tol) {
        double[] k = new double[n];
        double[] e = new double[n];
        rule(a, b, k, e);
        double p = 0;
        for (int c = 0; c < n; c++) {
            p = Math.max(p, tol[c] > 0 ? e[c] / tol[c] : (e[c] > 0 ? Double.MAX_VALUE : 0));
        }
        return new Segment(a, b, k, e, p);
    }

    private void rule(double a, double b, double[] k, double[] e) {
        double c = 0.5 * (a + b);
        double h = 0.5 * (b - a);
        java.util.Arrays.fill(kron, 0);
        java.util.Arrays.fill(gauss, 0);
        f.value(c, buf);
        for (int i = 0; i < n; i++) {
            kron[i] = WGK[7] * buf[i];
            gauss[i] = WG[3] * buf[i];
        }
        for (int j = 0; j < 7; j++) {
            double dx = h * XGK[j];
            for (int s = -1; s <= 1; s += 2) {
                f.value(c + s * dx, buf);
                for (int i = 0; i < n; i++) {
                    kron[i] += WGK[j] * buf[i];
                    if ((j & 1) == 1) {
                        gauss[i] += WG[j >> 1] * buf[i];
                    }
                }
            }
        }
        evaluations += 15;
        for (int i = 0; i < n; i++) {
            k[i] = kron[i] * h;
            e[i] = Math.abs((kron[i] - gauss[i]) * h);
        }
    }
}
