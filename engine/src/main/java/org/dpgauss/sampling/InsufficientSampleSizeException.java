package org.dpgauss.sampling;

/**
 * The number of rows {@code n} is below what a certified parameter recipe needs. Thrown before the data are
 * touched: the decision depends only on the public {@code n}, {@code d}, {@code epsilon}, {@code delta} and
 * {@code alpha}. The message and {@link #requiredRows()} give the {@code n} needed.
 */
public final class InsufficientSampleSizeException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final long requiredRows;

    InsufficientSampleSizeException(String message, long requiredRows) {
        super(message);
        this.requiredRows = requiredRows;
    }

    /** @return the smallest n the recipe certifies for the same d, epsilon, delta and alpha */
    public long requiredRows() {
        return requiredRows;
    }
}
