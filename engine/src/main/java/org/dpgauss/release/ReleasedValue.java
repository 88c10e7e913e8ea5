package org.dpgauss.release;

import java.util.Arrays;
import java.util.Objects;

/**
 * One noise-protected value of a release: a scalar, a vector or a matrix (rows). Immutable: the arrays are
 * copied in and out. Only a mechanism's private computation creates these, through
 * {@link Outcome.Builder}; public parameters have their own type ({@link PublicParameters}).
 */
public final class ReleasedValue {

    /** The shape of the value. */
    public enum Kind {
        /** A single number. */
        SCALAR,
        /** A vector. */
        VECTOR,
        /** A matrix given by its rows. */
        MATRIX
    }

    private final Kind kind;
    private final double scalar;
    private final double[] vector;
    private final double[][] matrix;

    private ReleasedValue(Kind kind, double scalar, double[] vector, double[][] matrix) {
        this.kind = kind;
        this.scalar = scalar;
        this.vector = vector;
        this.matrix = matrix;
    }

    static ReleasedValue scalar(double v) {
        return new ReleasedValue(Kind.SCALAR, v, null, null);
    }

    static ReleasedValue vector(double[] v) {
        return new ReleasedValue(Kind.VECTOR, Double.NaN, Objects.requireNonNull(v, "vector").clone(), null);
    }

    static ReleasedValue matrix(double[][] rows) {
        Objects.requireNonNull(rows, "matrix");
        double[][] copy = new double[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            copy[i] = Objects.requireNonNull(rows[i], "matrix row").clone();
        }
        return new ReleasedValue(Kind.MATRIX, Double.NaN, null, copy);
    }

    /** @return the shape */
    public Kind kind() {
        return kind;
    }

    /** @return the scalar; only for {@link Kind#SCALAR} */
    public double asScalar() {
        check(Kind.SCALAR);
        return scalar;
    }

    /** @return a copy of the vector; only for {@link Kind#VECTOR} */
    public double[] asVector() {
        check(Kind.VECTOR);
        return vector.clone();
    }

    /** @return a copy of the matrix rows; only for {@link Kind#MATRIX} */
    public double[][] asMatrix() {
        check(Kind.MATRIX);
        double[][] copy = new double[matrix.length][];
        for (int i = 0; i < matrix.length; i++) {
            copy[i] = matrix[i].clone();
        }
        return copy;
    }

    /** @return the value as a JSON-ready object: a Double, a double[] or a double[][] (copies) */
    public Object toJsonValue() {
        switch (kind) {
            case SCALAR:
                return scalar;
            case VECTOR:
                return asVector();
            default:
                return asMatrix();
        }
    }

    private void check(Kind wanted) {
        if (kind != wanted) {
            throw new IllegalStateException("the released value is a " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + ", not a " + wanted.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ReleasedValue)) {
            return false;
        }
        ReleasedValue v = (ReleasedValue) o;
        return kind == v.kind && Double.compare(scalar, v.scalar) == 0 && Arrays.equals(vector, v.vector)
                && Arrays.deepEquals(matrix, v.matrix);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, scalar, Arrays.hashCode(vector), Arrays.deepHashCode(matrix));
    }

    @Override
    public String toString() {
        switch (kind) {
            case SCALAR:
                return Double.toString(scalar);
            case VECTOR:
                return Arrays.toString(vector);
            default:
                return Arrays.deepToString(matrix);
        }
    }
}
