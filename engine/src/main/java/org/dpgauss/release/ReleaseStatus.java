package org.dpgauss.release;

/** Whether a mechanism released values ({@code PASS}) or declined to ({@code FAIL}, which releases nothing else). */
public enum ReleaseStatus {
    /** The released values are present. */
    PASS,
    /** A private test failed: nothing but the public statement is released. */
    FAIL
}
