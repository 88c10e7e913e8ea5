package org.dpgauss.bench.figure2;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.dpgauss.calibration.RandomProjectionCurve;

/**
 * The numbers behind Figure 2 of the NDIS paper (spec ndis §8.1, §8.2): for each number of projection columns
 * {@code r} and each {@code epsilon} on the grid, the NDIS leverage bound {@code p*} (Lemma 4 + CALIBRATE_P,
 * {@link RandomProjectionCurve#leverageBound}), the LSV threshold {@code p_LSV} (§7 item 1,
 * {@link RandomProjectionCurve#lsvLeverage}) and their ratio.
 */
public final class Figure2Data {

    /** The epsilons of the §8.2 table; always part of the grid. */
    public static final double[] TABLE_EPSILONS = {0.1, 0.25, 0.5, 1, 2, 3, 5};

    private final double delta;
    private final int[] rs;
    private final double[] epsilons;
    private final List<Series> series;

    /** One curve of the figure. */
    public record Series(int r, double[] leverage, double[] lsvLeverage, double[] ratio) {
    }

    private Figure2Data(double delta, int[] rs, double[] epsilons, List<Series> series) {
        this.delta = delta;
        this.rs = rs;
        this.epsilons = epsilons;
        this.series = series;
    }

    /**
     * The epsilon grid: {@code points} log-spaced values from {@code lo} to {@code hi} (inclusive), merged with
     * the table epsilons inside {@code [lo, hi]}, sorted, with near-duplicates (relative 1e-9) removed.
     */
    public static double[] grid(double lo, double hi, int points) {
        TreeSet<Double> set = new TreeSet<>();
        double ratio = Math.log(hi / lo);
        for (int i = 0; i < points; i++) {
            double x = i == points - 1 ? hi : lo * Math.exp(ratio * i / (points - 1));
            set.add(x);
        }
        for (double e : TABLE_EPSILONS) {
            if (e >= lo && e <= hi) {
                set.add(e);
            }
        }
        List<Double> out = new ArrayList<>();
        for (double x : set) {
            if (out.isEmpty() || x > out.get(out.size() - 1) * (1 + 1e-9)) {
                out.add(x);
            } else if (isTableEpsilon(x)) {
                out.set(out.size() - 1, x); // keep the exact table value
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static boolean isTableEpsilon(double x) {
        for (double e : TABLE_EPSILONS) {
            if (e == x) {
                return true;
            }
        }
        return false;
    }

    /** Computes every series. */
    public static Figure2Data compute(double delta, int[] rs, double[] epsilons) {
        List<Series> series = new ArrayList<>();
        for (int r : rs) {
            double[] p = new double[epsilons.length];
            double[] lsv = new double[epsilons.length];
            double[] ratio = new double[epsilons.length];
            for (int i = 0; i < epsilons.length; i++) {
                p[i] = RandomProjectionCurve.leverageBound(epsilons[i], delta, r);
                lsv[i] = RandomProjectionCurve.lsvLeverage(epsilons[i], delta, r);
                ratio[i] = p[i] / lsv[i];
            }
            series.add(new Series(r, p, lsv, ratio));
        }
        return new Figure2Data(delta, rs.clone(), epsilons.clone(), List.copyOf(series));
    }

    public double delta() {
        return delta;
    }

    public int[] rs() {
        return rs.clone();
    }

    public double[] epsilons() {
        return epsilons.clone();
    }

    public List<Series> series() {
        return series;
    }

    /** Index of {@code epsilon} in the grid, or -1. */
    public int indexOf(double epsilon) {
        for (int i = 0; i < epsilons.length; i++) {
            if (epsilons[i] == epsilon) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The epsilon (linear interpolation in log epsilon on the grid) where series {@code a} and {@code b} cross,
     * or NaN if their difference does not change sign on the grid.
     */
    public double crossing(Series a, Series b) {
        for (int i = 1; i < epsilons.length; i++) {
            double d0 = a.ratio()[i - 1] - b.ratio()[i - 1];
            double d1 = a.ratio()[i] - b.ratio()[i];
            if (d0 == 0) {
                return epsilons[i - 1];
            }
            if (Math.signum(d0) != Math.signum(d1)) {
                double t = d0 / (d0 - d1);
                return Math.exp(Math.log(epsilons[i - 1]) + t * Math.log(epsilons[i] / epsilons[i - 1]));
            }
        }
        return Double.NaN;
    }
}
