package org.dpgauss.mean.anisotropic;

/**
 * The group size rule of spec anisotropic-mean-estimation §4.3 [R]: the smallest integer {@code l} with
 * {@code d (F(l/2) + 1 - F(2l)) <= 1/8}, {@code F} the chi-square CDF with {@code l} degrees of freedom (exact,
 * via the regularized incomplete gamma function {@code P(l/2, x/2)}). Spec values: d = 1 → 11, 2 → 16, 10 → 30,
 * 100 → 50, 1000 → 72, 10^4 → 95. Static utility.
 */
public final class ChiSquareRule {

    private static final double[] LANCZOS = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
        9.9843695780195716e-6, 1.5056327351493116e-7};

    private ChiSquareRule() {
    }

    /**
     * @param d the dimension, {@code >= 1}
     * @return the smallest {@code l} with {@code d Pr[chi2_l/l outside [1/2, 2]] <= 1/8}
     */
    public static int groupHalfSize(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " must be >= 1: the rule bounds a union over d coordinates");
        }
        for (int l = 1; l < 100000; l++) {
            if (d * outsideProbability(l) <= 0.125) {
                return l;
            }
        }
        throw new IllegalArgumentException("d=" + d + " is too large for the chi-square rule (l >= 100000)");
    }

    /** {@code Pr[chi2_l < l/2] + Pr[chi2_l > 2l]}. */
    static double outsideProbability(int l) {
        double a = l / 2.0;
        return regularizedLowerGamma(a, l / 4.0) + regularizedUpperGamma(a, l);
    }

    static double regularizedLowerGamma(double a, double x) {
        return x < a + 1 ? series(a, x) : 1 - continuedFraction(a, x);
    }

    static double regularizedUpperGamma(double a, double x) {
        return x < a + 1 ? 1 - series(a, x) : continuedFraction(a, x);
    }

    /** Series for P(a, x), x < a + 1 (Numerical Recipes 6.2). */
    private static double series(double a, double x) {
        double sum = 1.0 / a;
        double term = sum;
        for (int n = 1; n < 10000; n++) {
            term *= x / (a + n);
            sum += term;
            if (Math.abs(term) < Math.abs(sum) * 1e-16) {
                break;
            }
        }
        return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
    }

    /** Lentz continued fraction for Q(a, x), x >= a + 1 (Numerical Recipes 6.2). */
    private static double continuedFraction(double a, double x) {
        double tiny = 1e-300;
        double b = x + 1 - a;
        double c = 1 / tiny;
        double dd = 1 / b;
        double h = dd;
        for (int i = 1; i < 10000; i++) {
            double an = -i * (i - a);
            b += 2;
            dd = an * dd + b;
            if (Math.abs(dd) < tiny) {
                dd = tiny;
            }
            c = b + an / c;
            if (Math.abs(c) < tiny) {
                c = tiny;
            }
            dd = 1 / dd;
            double del = dd * c;
            h *= del;
            if (Math.abs(del - 1) < 1e-16) {
                break;
            }
        }
        return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
    }

    /** Lanczos approximation (g = 7), relative error about 1e-15 for a > 0. */
    static double logGamma(double a) {
        if (a < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * a))) - logGamma(1 - a);
        }
        double x = a - 1;
        double s = LANCZOS[0];
        for (int i = 1; i < 9; i++) {
            s += LANCZOS[i] / (x + i);
        }
        double t = x + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(s);
    }
}
