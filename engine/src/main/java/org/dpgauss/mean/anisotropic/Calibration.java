package org.dpgauss.mean.anisotropic;

/**
 * How a target {@code (epsilon*, delta*)} is turned into the {@code (epsilon, delta)} passed to Algorithm 1
 * (spec anisotropic-mean-estimation §3.3, design.md privacy conventions: the sound version is the default).
 */
public enum Calibration {

    /**
     * Default. Thm 3.5: Algorithm 1 with internal {@code (epsilon, delta)}, both in {@code (0, 1/2)}, is
     * {@code (21 epsilon, e^10 delta)}-DP under add/remove; the replace-one (swap) guarantee follows by group
     * privacy of size 2 (spec §1.2 [D]): {@code (42 epsilon, (1 + e^{21 epsilon}) e^10 delta)}. The internal values
     * are chosen so that the achieved guarantee is at most the target. The output is certified (given a secure
     * random source).
     */
    PROVABLE,

    /**
     * Passes the target straight through as the internal {@code (epsilon, delta)}: reproduces the paper's rates,
     * but carries NO proof (spec §3.3 [R]). Every result is marked uncertified.
     */
    NOMINAL_UNCERTIFIED
}
