package org.dpgauss.secondmoment;

/**
 * Base of the test-oracle noises ({@link SymmetricNoise#none()} and the tests' recording noise): they add no grid
 * rounding to the accounting and are never secure, so a result computed with them is never DP-certified.
 */
abstract class OracleNoise implements SymmetricNoise {

    private final String description;

    /** @param description what {@link #describe()} returns */
    OracleNoise(String description) {
        this.description = description;
    }

    @Override
    public double roundingInflation(int d, double sigma) {
        return 0;
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String describe() {
        return description;
    }
}
