package org.dpgauss.mechanism;

import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The public promises both NDIS mechanisms' sensitivities rest on, for data given as feature columns followed by
 * one label column: the column count, and at most the public maximum N of rows. Checked before any budget is
 * charged; the messages give the rule, not the number of rows.
 */
final class LabelledRows {

    private LabelledRows() {
    }

    /**
     * @param m the data
     * @param features the number of feature columns (the label is one more)
     * @param featureName how the feature count is called in the message ({@code d} or {@code p})
     * @param maxRows the public maximum N
     * @param spec the spec section the sensitivity comes from
     * @throws IllegalArgumentException on a wrong column count or more than N rows
     */
    static void check(RowBlockMatrix m, int features, String featureName, int maxRows, String spec) {
        if (m.cols() != features + 1) {
            throw new IllegalArgumentException("the data have " + m.cols() + " columns, expected " + featureName
                    + "+1=" + (features + 1));
        }
        if (m.rows() > maxRows) {
            throw new IllegalArgumentException("the data have more rows than the public maximum N=" + maxRows
                    + " the sensitivity was computed for (" + spec + "): raise the maximum");
        }
    }
}
