package org.dpgauss.plan;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.dpgauss.privacy.ApproxDp;

/**
 * The public facts a user has before touching the data: the family, n (or an upper bound for add/remove
 * mechanisms), d, the total budget, and whatever public bounds they know (a clipping radius around a public
 * centre, a row-norm bound, a lower bound on lambda_min of the second moment, a covariance proxy, a projection
 * rank). Immutable; built with {@link #builder}.
 */
public final class PlanQuery {

    private final Family family;
    private final int rows;
    private final int dimension;
    private final ApproxDp budget;
    private final Double clipRadius;
    private final double[] centre;
    private final Double rowBound;
    private final double[] variances;
    private final Integer rank;
    private final double[][] covariance;
    private final Double minEigenvalue;
    private final double[] lower;
    private final double[] upper;
    private final Double lambda;
    private final double intercept;
    private final boolean pointEstimate;

    private PlanQuery(Builder b) {
        this.covariance = b.covariance;
        this.minEigenvalue = b.minEigenvalue;
        this.family = b.family;
        this.rows = b.rows;
        this.dimension = b.dimension;
        this.budget = b.budget;
        this.clipRadius = b.clipRadius;
        this.centre = b.centre;
        this.rowBound = b.rowBound;
        this.variances = b.variances;
        this.rank = b.rank;
        this.lambda = b.lambda;
        this.intercept = b.intercept;
        this.pointEstimate = b.pointEstimate;
        this.lower = b.lower;
        this.upper = b.upper;
    }

    /** @return public per-column ranges {lower, upper} (each of length d) covering the rows, if known (copies) */
    public Optional<double[][]> bounds() {
        return lower == null ? Optional.empty() : Optional.of(new double[][] {lower.clone(), upper.clone()});
    }

    /**
     * @param family what is released
     * @param rows n (public under replace-one; under add/remove a public upper bound)
     * @param dimension d
     * @param budget the total (epsilon, delta)
     * @return a builder
     */
    public static Builder builder(Family family, int rows, int dimension, ApproxDp budget) {
        return new Builder(family, rows, dimension, budget);
    }

    /** @return the family */
    public Family family() {
        return family;
    }

    /** @return n */
    public int rows() {
        return rows;
    }

    /** @return d */
    public int dimension() {
        return dimension;
    }

    /** @return the total budget */
    public ApproxDp budget() {
        return budget;
    }

    /** @return a public L2 radius around {@link #centre()} that covers the rows, if known */
    public OptionalDouble clipRadius() {
        return clipRadius == null ? OptionalDouble.empty() : OptionalDouble.of(clipRadius);
    }

    /** @return the public centre of the clipping ball (default the origin) */
    public double[] centre() {
        return centre == null ? new double[dimension] : centre.clone();
    }

    /** @return the public centre if one was given (so that a planned command can repeat it) */
    public Optional<double[]> givenCentre() {
        return centre == null ? Optional.empty() : Optional.of(centre.clone());
    }

    /** @return a public bound on every row's L2 norm, if known */
    public OptionalDouble rowBound() {
        return rowBound == null ? OptionalDouble.empty() : OptionalDouble.of(rowBound);
    }

    /** @return a public diagonal covariance proxy, if known */
    public Optional<double[]> variances() {
        return Optional.ofNullable(variances).map(double[]::clone);
    }

    /** @return a public full covariance proxy (d x d, symmetric), if known (a copy) */
    public Optional<double[][]> covariance() {
        if (covariance == null) {
            return Optional.empty();
        }
        double[][] c = new double[covariance.length][];
        for (int i = 0; i < c.length; i++) {
            c[i] = covariance[i].clone();
        }
        return Optional.of(c);
    }

    /**
     * @return the diagonal of the covariance proxy: {@link #variances()} if given, else the diagonal of
     *         {@link #covariance()}, if given
     */
    public Optional<double[]> varianceDiagonal() {
        if (variances != null) {
            return variances();
        }
        if (covariance == null) {
            return Optional.empty();
        }
        double[] v = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            v[i] = covariance[i][i];
        }
        return Optional.of(v);
    }

    /** @return the projection rank r, if given */
    public OptionalInt rank() {
        return rank == null ? OptionalInt.empty() : OptionalInt.of(rank);
    }

    /** @return a public lower bound on lambda_min of the rows' second moment (hence on its spectral norm), if known */
    public OptionalDouble minEigenvalue() {
        return minEigenvalue == null ? OptionalDouble.empty() : OptionalDouble.of(minEigenvalue);
    }

    /** @return blr: the public regulariser lambda, if chosen */
    public OptionalDouble lambda() {
        return lambda == null ? OptionalDouble.empty() : OptionalDouble.of(lambda);
    }

    /** @return blr: the public intercept constant c (0: no intercept column) */
    public double intercept() {
        return intercept;
    }

    /**
     * @return blr: whether the release planned is the point estimate ({@code mechanism blr --output point}, output
     *     perturbation; the default) rather than the posterior sample ({@code --output sample})
     */
    public boolean pointEstimate() {
        return pointEstimate;
    }

    /** Builds a query; validates ranges. */
    public static final class Builder {
        private final Family family;
        private final int rows;
        private final int dimension;
        private final ApproxDp budget;
        private Double clipRadius;
        private double[] centre;
        private Double rowBound;
        private double[] variances;
        private Integer rank;
        private double[][] covariance;
        private Double minEigenvalue;
        private double[] lower;
        private double[] upper;
        private Double lambda;
        private double intercept;
        private boolean pointEstimate = true;

        private Builder(Family family, int rows, int dimension, ApproxDp budget) {
            this.family = Objects.requireNonNull(family, "family");
            if (rows < 1 || dimension < 1) {
                throw new IllegalArgumentException("n=" + rows + " and d=" + dimension + " must be >= 1");
            }
            this.rows = rows;
            this.dimension = dimension;
            this.budget = Objects.requireNonNull(budget, "budget");
            if (!(budget.epsilon() > 0 && budget.delta() > 0)) {
                throw new IllegalArgumentException("the budget needs epsilon > 0 and delta > 0");
            }
        }

        /**
         * @param c a public radius around the centre covering the rows
         * @return this builder
         */
        public Builder clipRadius(double c) {
            if (!(c > 0) || Double.isInfinite(c)) {
                throw new IllegalArgumentException("clip radius " + c + " must be finite and > 0");
            }
            this.clipRadius = c;
            return this;
        }

        /**
         * @param c the public centre (length d)
         * @return this builder
         */
        public Builder centre(double[] c) {
            if (c.length != dimension) {
                throw new IllegalArgumentException("the centre has " + c.length + " coordinates, d=" + dimension);
            }
            this.centre = c.clone();
            return this;
        }

        /**
         * @param l a public bound on every row's L2 norm
         * @return this builder
         */
        public Builder rowBound(double l) {
            if (!(l > 0) || Double.isInfinite(l)) {
                throw new IllegalArgumentException("row bound " + l + " must be finite and > 0");
            }
            this.rowBound = l;
            return this;
        }

        /**
         * @param v a public diagonal covariance proxy (length d, positive)
         * @return this builder
         */
        public Builder variances(double[] v) {
            if (v.length != dimension) {
                throw new IllegalArgumentException("the variances have " + v.length + " entries, d=" + dimension);
            }
            for (double x : v) {
                if (!(x > 0) || Double.isInfinite(x)) {
                    throw new IllegalArgumentException("every variance must be finite and > 0");
                }
            }
            this.variances = v.clone();
            return this;
        }

        /**
         * @param c a public full covariance proxy, d x d, finite, symmetric (relative 1e-12), positive diagonal
         *        (positive definiteness is checked by the methods that need it); copied
         * @return this builder
         */
        public Builder covariance(double[][] c) {
            if (c.length != dimension) {
                throw new IllegalArgumentException("the covariance has " + c.length + " rows, d=" + dimension);
            }
            double max = 0;
            double[][] copy = new double[dimension][];
            for (int i = 0; i < dimension; i++) {
                if (c[i].length != dimension) {
                    throw new IllegalArgumentException("covariance row " + (i + 1) + " has " + c[i].length
                            + " entries, d=" + dimension);
                }
                for (double x : c[i]) {
                    if (!Double.isFinite(x)) {
                        throw new IllegalArgumentException("the covariance has a non-finite entry in row " + (i + 1));
                    }
                    max = Math.max(max, Math.abs(x));
                }
                copy[i] = c[i].clone();
            }
            for (int i = 0; i < dimension; i++) {
                if (!(c[i][i] > 0)) {
                    throw new IllegalArgumentException("covariance entry (" + (i + 1) + "," + (i + 1) + ") must be > 0");
                }
                for (int j = 0; j < i; j++) {
                    if (Math.abs(c[i][j] - c[j][i]) > 1e-12 * max) {
                        throw new IllegalArgumentException("the covariance is not symmetric at (" + (i + 1) + ","
                                + (j + 1) + ")");
                    }
                }
            }
            this.covariance = copy;
            return this;
        }

        /**
         * @param r the projection rank
         * @return this builder
         */
        public Builder rank(int r) {
            if (r < 1) {
                throw new IllegalArgumentException("rank " + r + " must be >= 1");
            }
            this.rank = r;
            return this;
        }

        /**
         * @param l a public lower bound on lambda_min of the rows' second moment S = (1/n) sum x_i x_i^T (it also
         *     bounds ||S||_2 from below)
         * @return this builder
         */
        public Builder minEigenvalue(double l) {
            if (!(l > 0) || Double.isInfinite(l)) {
                throw new IllegalArgumentException("min eigenvalue bound " + l + " must be finite and > 0");
            }
            this.minEigenvalue = l;
            return this;
        }

        /**
         * @param lo public lower bounds per column (length d, finite)
         * @param hi public upper bounds per column (length d, finite, above lo)
         * @return this builder
         */
        public Builder bounds(double[] lo, double[] hi) {
            if (lo.length != dimension || hi.length != dimension) {
                throw new IllegalArgumentException("the bounds have " + lo.length + " and " + hi.length
                        + " entries, d=" + dimension);
            }
            for (int j = 0; j < dimension; j++) {
                if (!Double.isFinite(lo[j]) || !Double.isFinite(hi[j]) || !(lo[j] < hi[j])) {
                    throw new IllegalArgumentException("the range of column " + (j + 1) + " must be finite with lo < hi");
                }
            }
            this.lower = lo.clone();
            this.upper = hi.clone();
            return this;
        }

        /**
         * @param value blr: the public regulariser lambda &gt; 0
         * @return this builder
         */
        public Builder lambda(double value) {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("lambda " + value + " must be finite and > 0");
            }
            this.lambda = value;
            return this;
        }

        /**
         * @param c blr: the public intercept constant, {@code c >= 0} (0: no intercept column)
         * @return this builder
         */
        public Builder intercept(double c) {
            if (!(c >= 0) || Double.isInfinite(c)) {
                throw new IllegalArgumentException("intercept " + c + " must be finite and >= 0");
            }
            this.intercept = c;
            return this;
        }

        /**
         * blr: which release to plan (issue 26: the point estimate is the classifier to use, so it is the default).
         *
         * @param value true (default) for the point estimate {@code theta^ + N(0, s^2 I)} of
         *     {@code mechanism blr --output point}; false for the posterior sample of spec ndis §6.6
         *     ({@code --output sample})
         * @return this builder
         */
        public Builder pointEstimate(boolean value) {
            this.pointEstimate = value;
            return this;
        }

        /** @return the query */
        public PlanQuery build() {
            return new PlanQuery(this);
        }
    }
}
