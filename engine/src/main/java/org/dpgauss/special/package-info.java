/**
 * Special functions with tail accuracy: the standard normal and the noncentral chi-square distribution (spec
 * {@code ndis.md} §4.2, §11.3). Built on Apache Commons Numbers / Statistics; the central chi-square is Commons
 * Statistics' {@code ChiSquaredDistribution}, whose CDF and survival function each keep relative accuracy in their
 * tail (golden-tested against mpmath in {@code ChiSquareTest}).
 * <p><b>Internal</b>: not part of the library's API (docs/design/api-surface.md); the mechanisms and the
 * calibration use it, no public signature names its types.
 */
package org.dpgauss.special;
