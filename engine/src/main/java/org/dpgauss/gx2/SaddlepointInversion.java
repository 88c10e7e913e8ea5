package org.dpgauss.gx2;

/**
 * Numerical inversion of the moment generating function along the vertical line through the saddlepoint
 * (spec ndis §4.2 item 2, with the contour moved off the imaginary axis). With the cumulant generating function
 * {@code K(t) = sum_j [ -(k_j/2) log(1 - 2 w_j t) + nc_j w_j t/(1 - 2 w_j t) ] + sigma^2 t^2/2}:
 *
 * <pre>  P[Q > x]  =  (1/pi) Int_0^inf Re[ exp(K(t0+iu) - (t0+iu) x) / (t0+iu) ] du,   0 < t0 < t_max,
 *   P[Q <= x] = -(1/pi) Int_0^inf Re[ ... ] du,                                    t_min < t0 < 0.</pre>
 *
 * t0 minimises {@code K(t) - t x - log|t|} on the chosen side (the exact saddlepoint of the integrand, which keeps
 * t0 away from the pole at 0 and the singularities at {@code 1/(2 w_j)}). The side whose probability is the
 * smaller (x above or below the mean) is integrated; the integrand is then of the size of the answer, which
 * gives relative accuracy in the tails.
 *
 * <p><b>Error.</b> Panels of growing width are integrated by adaptive Gauss-Kronrod. The integral beyond U is
 * bounded explicitly: with {@code a_j = 1 - 2 w_j t0}, {@code r_j = 2 w_j / a_j}, every factor
 * {@code |1 - 2 w_j (t0+iu)|^{-k_j/2} = a_j^{-k_j/2} (1 + r_j^2 u^2)^{-k_j/4}} and the noncentral factors
 * decrease in u, and log(1 + r^2 e^{2v}) is convex in v, so for {@code u >= U}
 * {@code |integrand| <= B(U) (U/u)^rho e^{-sigma^2 (u^2-U^2)/2} / u} with
 * {@code rho = sum_j (k_j/2) r_j^2 U^2 / (1 + r_j^2 U^2)}; hence the tail is at most
 * {@code B(U)/pi * min(1/rho, 1/(sigma^2 U^2))}. The reported bound is that plus the Kronrod error estimates
 * plus a rounding allowance of 1e-13 of the integral's scale.
 */
final class SaddlepointInversion {

    /** Relative accuracy goal; the phase, a sum over all terms, carries rounding noise near 1e-14 of the scale. */
    private static final double REL_TOL = 1e-13;
    private static final int MAX_PANELS = 20_000;
    /** Panel limit when inversion is forced although too costly: the result then carries its (large) bound. */
    private static final int MAX_PANELS_FORCED = 2_000;
    /** Estimated vertical-line panels above which the bent contour is tried first (sigma = 0 only). */
    private static final double BENT_PANELS = 60;

    private final double[] w;
    private final double[] k;
    private final double[] nc;
    private final double sigma2;
    private final double tLo;
    private final double tHi;
    private final double mean;
    private final double sd;

    SaddlepointInversion(double[] w, int[] dof, double[] nc, double sigma) {
        int m = w.length;
        this.w = w.clone();
        this.k = new double[m];
        this.nc = nc.clone();
        this.sigma2 = sigma * sigma;
        double lo = Double.NEGATIVE_INFINITY;
        double hi = Double.POSITIVE_INFINITY;
        double mu = 0;
        double var = sigma2;
        for (int j = 0; j < m; j++) {
            k[j] = dof[j];
            if (w[j] > 0) {
                hi = Math.min(hi, 0.5 / w[j]);
            } else {
                lo = Math.max(lo, 0.5 / w[j]);
            }
            mu += w[j] * (dof[j] + nc[j]);
            var += 2 * w[j] * w[j] * (dof[j] + 2 * nc[j]);
        }
        this.tLo = lo;
        this.tHi = hi;
        this.mean = mu;
        this.sd = Math.sqrt(var);
    }

    /** K'(t) - x - 1/t and its derivative K''(t) + 1/t^2. */
    private double[] hPrime(double t, double x) {
        double d1 = sigma2 * t;
        double d2 = sigma2;
        for (int j = 0; j < w.length; j++) {
            double a = 1 / (1 - 2 * w[j] * t);
            d1 += w[j] * a * (k[j] + nc[j] * a);
            d2 += 2 * w[j] * w[j] * a * a * (k[j] + 2 * nc[j] * a);
        }
        return new double[] {d1 - x - 1 / t, d2 + 1 / (t * t)};
    }

    private double h(double t, double x) {
        double s = 0.5 * sigma2 * t * t - t * x - Math.log(Math.abs(t));
        for (int j = 0; j < w.length; j++) {
            double b = 2 * w[j] * t;
            s += -0.5 * k[j] * Math.log1p(-b) + 0.5 * nc[j] * b / (1 - b);
        }
        return s;
    }

    /** The saddlepoint on the side of sign {@code side}: root of h'(t) = 0, h convex there. */
    private double saddle(double x, int side) {
        double edge = side > 0 ? tHi : -tLo; // distance to the singularity (may be infinite)
        double lo = Math.min(0.5 * edge, 1 / sd);
        while (hPrime(side * lo, x)[0] * side > 0 && lo > 1e-300) {
            lo *= 0.125;
        }
        double hi;
        if (Double.isFinite(edge)) {
            hi = edge;
            double cand = edge * 0.5;
            while (hPrime(side * cand, x)[0] * side < 0 && cand < edge) {
                double next = 0.5 * (cand + edge);
                if (next == cand || next == edge) {
                    break;
                }
                cand = next;
            }
            hi = cand;
        } else {
            hi = Math.max(2 * lo, 1 / sd);
            for (int i = 0; i < 2000 && hPrime(side * hi, x)[0] * side < 0; i++) {
                hi *= 2;
            }
        }
        double t = Math.sqrt(lo * hi);
        for (int i = 0; i < 200; i++) {
            double[] d = hPrime(side * t, x);
            double f = d[0] * side; // increasing in t (distance from 0)
            if (f < 0) {
                lo = t;
            } else {
                hi = t;
            }
            double next = t - f / d[1];
            if (!(next > lo && next < hi)) {
                next = 0.5 * (lo + hi);
            }
            if (Math.abs(next - t) <= 1e-10 * t || hi - lo <= 1e-12 * hi) {
                t = next;
                break;
            }
            t = next;
        }
        return side * t;
    }

    /** The prepared integral for one x. */
    private final class Contour implements GaussKronrod.Integrand {
        final double t0;
        final double x;
        final double[] a;
        final double[] r;
        final double base; // Re K(t0) pieces independent of u, minus t0 x
        final double sign;

        Contour(double x, double t0) {
            this.x = x;
            this.t0 = t0;
            int m = w.length;
            a = new double[m];
            r = new double[m];
            double b = 0.5 * sigma2 * t0 * t0 - t0 * x;
            for (int j = 0; j < m; j++) {
                a[j] = 1 - 2 * w[j] * t0;
                r[j] = 2 * w[j] / a[j];
                // Real part at u = 0 in the form w t0 / a (no -nc/2 + nc/(2a) cancellation for tiny weights).
                b += -0.5 * k[j] * Math.log(a[j]) + nc[j] * w[j] * t0 / a[j];
            }
            base = b;
            sign = t0 > 0 ? 1 : -1;
        }

        @Override
        public void value(double u, double[] out) {
            double re = base - 0.5 * sigma2 * u * u;
            double im = sigma2 * t0 * u - u * x;
            for (int j = 0; j < a.length; j++) {
                double v = r[j] * u;
                double q = 1 + v * v;
                re += -0.25 * k[j] * Math.log1p(v * v);
                im += 0.5 * k[j] * Math.atan(v);
                if (nc[j] != 0) {
                    // nc/(2 a (1 + i v)...): real part relative to u = 0 is -c v^2, imaginary part c v.
                    double c = 0.5 * nc[j] / (a[j] * q);
                    re -= c * v * v;
                    im += c * v;
                }
            }
            double mag = Math.exp(re);
            out[0] = sign * mag * (t0 * Math.cos(im) + u * Math.sin(im)) / ((t0 * t0 + u * u) * Math.PI);
        }

        /** Bound on the integral over [U, inf). */
        double tailBound(double uCut) {
            double re = base - 0.5 * sigma2 * uCut * uCut;
            double rho = 0;
            for (int j = 0; j < a.length; j++) {
                double v2 = r[j] * uCut * r[j] * uCut;
                re += -0.25 * k[j] * Math.log1p(v2);
                if (nc[j] != 0) {
                    re -= 0.5 * nc[j] / a[j] * v2 / (1 + v2);
                }
                rho += 0.5 * k[j] * v2 / (1 + v2);
            }
            double f = Double.POSITIVE_INFINITY;
            if (rho > 0) {
                f = 1 / rho;
            }
            if (sigma2 > 0) {
                f = Math.min(f, 1 / (sigma2 * uCut * uCut));
            }
            return Math.exp(re) * f / Math.PI;
        }
    }

    /**
     * The contour bent into the half-plane where {@code e^{-tx}} decays: {@code t(u) = t0 + b u^2 + i u} with
     * {@code b x > 0} (sigma = 0 only). It crosses the real axis only at t0 and never meets the singularities
     * {@code 1/(2 w_j)} or the pole at 0 (all on the real axis), and the integrand vanishes on the arcs joining it
     * to the vertical line at infinity, so by Cauchy's theorem the integral is unchanged. By conjugate symmetry
     * {@code (1/2 pi i) Int M(t) e^{-tx} / t dt = (1/pi) Int_0^inf Im[ M(t) e^{-tx} t'(u) / t ] du}; with b = 0 this is
     * the vertical-line formula. Why: with sigma = 0 and few degrees of freedom the vertical-line integrand decays
     * only like {@code u^{-1-sum k/2}}, while here it decays like {@code e^{-b x u^2}}.
     */
    private final class BentContour implements GaussKronrod.Integrand {
        final double t0;
        final double x;
        final double b;
        final double sign;
        /** sum_j -(k_j/2) log(2|w_j|) and sum_j nc_j/(4|w_j|) for the tail bound. */
        final double logScale;
        final double ncOverW;
        final double ncHalf;
        final double kHalf;

        BentContour(double x, double t0, double b) {
            this.x = x;
            this.t0 = t0;
            this.b = b;
            this.sign = t0 > 0 ? 1 : -1;
            double ls = 0;
            double nw = 0;
            double nh = 0;
            double kh = 0;
            for (int j = 0; j < w.length; j++) {
                ls += -0.5 * k[j] * Math.log(2 * Math.abs(w[j]));
                nw += nc[j] / (4 * Math.abs(w[j]));
                nh += 0.5 * nc[j];
                kh += 0.5 * k[j];
            }
            logScale = ls;
            ncOverW = nw;
            ncHalf = nh;
            kHalf = kh;
        }

        @Override
        public void value(double u, double[] out) {
            double tr = t0 + b * u * u;
            double ti = u;
            double re = -tr * x;
            double im = -ti * x;
            for (int j = 0; j < w.length; j++) {
                double zr = 1 - 2 * w[j] * tr;
                double zi = -2 * w[j] * ti;
                // log z on the principal branch: z stays in one open half-plane for u > 0, so it is continuous
                re += -0.25 * k[j] * Math.log(zr * zr + zi * zi);
                im += -0.5 * k[j] * Math.atan2(zi, zr);
                if (nc[j] != 0) {
                    // nc w t / z
                    double nr = nc[j] * w[j] * tr;
                    double ni = nc[j] * w[j] * ti;
                    double den = zr * zr + zi * zi;
                    re += (nr * zr + ni * zi) / den;
                    im += (ni * zr - nr * zi) / den;
                }
            }
            double mag = Math.exp(re);
            // g = e^{re + i im} / t ;  value = Im[g t'], t' = 2 b u + i
            double gr = mag * Math.cos(im);
            double gi = mag * Math.sin(im);
            double tt = tr * tr + ti * ti;
            double qr = (gr * tr + gi * ti) / tt; // g / t
            double qi = (gi * tr - gr * ti) / tt;
            out[0] = sign * (qi * 2 * b * u + qr) / Math.PI;
        }

        /**
         * Bound on the integral over [U, inf): {@code |1 - 2 w_j t| >= 2 |w_j| u},
         * {@code Re[nc w t/(1 - 2 w t)] <= -nc/2 + nc/(4 |w| u)}, {@code |t'|/|t| <= sqrt(4 b^2 u^2 + 1)/u}, all
         * nonincreasing in u, times {@code e^{-x t0 - b x u^2}}; so the tail is at most
         * {@code B(U) / (2 b x U)} with B the majorant at U.
         */
        double tailBound(double uCut) {
            double logB = logScale - kHalf * Math.log(uCut) - ncHalf + ncOverW / uCut - x * t0 - b * x * uCut * uCut
                    + 0.5 * Math.log(4 * b * b * uCut * uCut + 1) - Math.log(uCut);
            return Math.exp(logB) / (Math.PI * 2 * b * x * uCut);
        }
    }

    /** Mean of the distribution (which tail is integrated). */
    double mean() {
        return mean;
    }

    /**
     * @param x       threshold, strictly inside the support
     * @param maxWork limit on integrand evaluations x terms; when the estimated cost exceeds it, null is returned
     *                (unless {@code force})
     * @return {lower, upper, error bound} or null
     */
    double[] tails(double x, double maxWork, boolean force) {
        int side = x >= mean ? 1 : -1;
        double t0 = saddle(x, side);
        Contour c = new Contour(x, t0);
        double[] hp = hPrime(t0, x);
        double s0 = 1 / Math.sqrt(hp[1]);
        double f0 = Math.exp(h(t0, x)) / Math.PI; // |integrand(0)|
        double est = f0 * s0;
        double omega = Math.abs(x - sigma2 * t0);
        double hCap = omega > 0 ? Math.max(s0, Math.PI / omega) : Double.POSITIVE_INFINITY;
        // Cost estimate: where does the tail bound fall below the tolerance?
        double uCut = s0;
        int doublings = 0;
        while (c.tailBound(uCut) > 0.1 * REL_TOL * est && doublings < 1100) {
            uCut *= 2;
            doublings++;
        }
        double panels = Math.log(Math.max(1, Math.min(uCut, hCap) / s0)) / Math.log(1.3) + uCut / hCap + 1;
        double work = 30 * panels * Math.max(1, w.length);
        // Many terms make the vertical-line integrand decay fast; few degrees of freedom make it decay like a
        // power. Only then is the bent contour worth its longer path.
        if (sigma2 == 0 && x != 0 && (doublings >= 1100 || panels > BENT_PANELS)) {
            double[] r = bentTails(x, side, t0);
            if (r != null) {
                return r;
            }
        }
        if (!force && (doublings >= 1100 || work > maxWork || panels > MAX_PANELS)) {
            return null;
        }
        GaussKronrod gk = new GaussKronrod(c, 1);
        double[] sum = new double[1];
        double[] err = new double[1];
        double u = 0;
        double width = s0;
        double tail = Double.POSITIVE_INFINITY;
        int maxPanels = panels > MAX_PANELS || work > maxWork ? MAX_PANELS_FORCED : MAX_PANELS;
        for (int p = 0; p < maxPanels; p++) {
            double tol = REL_TOL * Math.max(Math.abs(sum[0]), est) / 8;
            gk.integrate(new double[] {u, u + width}, new double[] {tol}, 64, sum, err);
            u += width;
            width = Math.min(width * 1.3, hCap);
            tail = c.tailBound(u);
            if (tail <= 0.1 * REL_TOL * Math.abs(sum[0])) {
                break;
            }
        }
        double direct = Math.max(0, Math.min(1, sum[0]));
        // Rounding: the oscillating integrand and its phase (a sum over all terms) carry relative errors of a
        // few ulps of the integral's scale; allow 1e-13 of it.
        double bound = err[0] + tail + REL_TOL * Math.max(Math.abs(sum[0]), est);
        return side > 0 ? new double[] {1 - direct, direct, bound} : new double[] {direct, 1 - direct, bound};
    }

    /**
     * The bent-contour integral ({@link BentContour}); null when its integrand grows much larger than the answer
     * (cancellation would cost accuracy), so that the caller falls back to the vertical line.
     */
    private double[] bentTails(double x, int side, double t0) {
        double[] hp = hPrime(t0, x);
        double s0 = 1 / Math.sqrt(hp[1]);
        double f0 = Math.exp(h(t0, x)) / Math.PI;
        double est = f0 * s0;
        // A mild bend, b = 1/(2 s0): the path leaves t0 vertically (the steepest direction there) and turns towards
        // Re t -> sign(x) inf only at u ~ s0, so |M(t)| stays near its saddle value. The Gaussian decay e^{-b x u^2}
        // may then set in late when |x| s0 is small, but panels grow geometrically, so a long range is cheap.
        double b = Math.signum(x) * 0.5 / s0;
        for (int attempt = 0; attempt < 4; attempt++, b *= 0.25) {
            double[] r = bentTails(x, side, t0, b, s0, f0, est);
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    private double[] bentTails(double x, int side, double t0, double b, double s0, double f0, double est) {
        BentContour c = new BentContour(x, t0, b);
        double[] probe = new double[1];
        double maxAbs = 0;
        for (double u = 0.25 * s0; u < 1e300; u *= 1.25) {
            c.value(u, probe);
            if (!(Math.abs(probe[0]) <= 1e3 * f0)) {
                return null; // the bend leads where the integrand is large: cancellation would cost digits
            }
            maxAbs = Math.max(maxAbs, Math.abs(probe[0]));
            if (c.tailBound(u) <= 1e-3 * REL_TOL * est) {
                break;
            }
        }
        GaussKronrod gk = new GaussKronrod(c, 1);
        double[] sum = new double[1];
        double[] err = new double[1];
        double u = 0;
        double width = 0.5 * s0;
        double tail = Double.POSITIVE_INFINITY;
        for (int p = 0; p < 600; p++) {
            double tol = REL_TOL * Math.max(Math.abs(sum[0]), est) / 8;
            gk.integrate(new double[] {u, u + width}, new double[] {tol}, 64, sum, err);
            u += width;
            width *= 1.2;
            tail = c.tailBound(u);
            if (tail <= 0.1 * REL_TOL * Math.abs(sum[0])) {
                break;
            }
        }
        if (!(tail <= 0.1 * REL_TOL * Math.abs(sum[0])) || !(err[0] <= 1e-3 * Math.abs(sum[0]))) {
            return null;
        }
        double direct = Math.max(0, Math.min(1, sum[0]));
        // Rounding allowance relative to the largest integrand values met (probed on a geometric grid).
        double bound = err[0] + tail + REL_TOL * Math.max(Math.max(Math.abs(sum[0]), est), maxAbs * s0);
        return side > 0 ? new double[] {1 - direct, direct, bound} : new double[] {direct, 1 - direct, bound};
    }
}
